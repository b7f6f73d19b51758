// mission workflows edit: the plan opened in the person's $EDITOR as a plan
// file and applied whole by the real daemon, or nothing; a mistake names
// its line or its cycle and keeps the edit to fix; a plan whose tasks
// started is refused before any editor opens.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* const kPlan = R"(summary = "Add a health endpoint"
approach = "table, then endpoint"

[[tasks]]
name = "db"
description = "make db"

[[tasks]]
name = "api"
description = "make api"
depends_on = ["db"]
)";

// `mission workflows edit ID` with EDITOR set to a script that replaces the
// file it is given by `replacement` (and leaves a mark that it ran).
ProcessResult edit_with(const Instance& instance, const std::string& id,
                        const std::string& replacement) {
  const fs::path source = instance.root.path() / "replacement.toml";
  write_file(source, replacement);
  const fs::path editor = instance.root.path() / "editor.sh";
  write_file(editor, "#!/bin/sh\ntouch \"" + (instance.root.path() / "editor-ran").string() +
                         "\"\nfor f; do :; done\ncat \"" + source.string() + "\" > \"$f\"\n");
  fs::permissions(editor, fs::perms::owner_all);
  auto env = instance.env();
  env["EDITOR"] = editor.string() + " --wait";  // EDITOR may carry arguments
  env.erase("VISUAL");
  env["TMPDIR"] = (instance.root.path() / "edits").string();
  fs::create_directories(env["TMPDIR"]);
  std::vector<std::string> argv{MISSION_PATH, "workflows", "edit", id};
  return run_process(argv, env);
}

std::string created_workflow(const Instance& instance, const fs::path& repo) {
  const fs::path file = instance.root.path() / "plan.toml";
  write_file(file, kPlan);
  ProcessResult made = run_mission(
      instance, {"workflows", "create", "health", "--from", file.string(), "--cwd", repo.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return mission_json(instance, {"workflows", "list"})["workflows"][0]["id"];
}

std::vector<std::string> task_names(const Instance& instance, const std::string& id) {
  std::vector<std::string> names;
  const json shown = mission_json(instance, {"workflows", "show", id});
  for (const auto& task : shown["tasks"]) names.push_back(task["name"]);
  return names;
}

}  // namespace

TEST_CASE("mission workflows edit applies the plan a person edits in $EDITOR") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const std::string id = created_workflow(instance, repo);

  // The editor gets the plan as a plan file: reading it back unchanged is no change.
  auto env = instance.env();
  env["EDITOR"] = "true";
  ProcessResult same = run_process({MISSION_PATH, "workflows", "edit", id}, env);
  INFO(same.err);
  CHECK(same.exit_code == 0);
  CHECK(same.out == "No change: workflow " + id + " keeps its plan.\n");

  ProcessResult edited =
      edit_with(instance, id, "max_parallel_tasks = 3\n" + std::string(kPlan) + R"(
[[tasks]]
name = "tests"
description = "test the endpoint, with \"quotes\""
depends_on = ["api"]
files_likely_affected = ["test/health.sh"]
)");
  INFO(edited.err);
  REQUIRE(edited.exit_code == 0);
  CHECK(edited.out.find("Workflow " + id + " (health) has a new plan: 3 tasks, 2 dependencies") !=
        std::string::npos);
  CHECK(task_names(instance, id) == std::vector<std::string>{"db", "api", "tests"});
  json shown = mission_json(instance, {"workflows", "show", id});
  CHECK(shown["status"] == "ready");
  CHECK(shown["maxParallelTasks"] == 3);
  json graph = mission_json(instance, {"plan", id});
  CHECK(graph["edges"].size() == 2);
  // The daemon keeps what the file said, texts and lists alike.
  ProcessResult reopened = run_process({MISSION_PATH, "workflows", "edit", id}, [&] {
    auto e = instance.env();
    e["EDITOR"] = "cat";
    return e;
  }());
  CHECK(reopened.out.find("description = \"test the endpoint, with \\\"quotes\\\"\"") !=
        std::string::npos);
  CHECK(reopened.out.find("files_likely_affected = [\"test/health.sh\"]") != std::string::npos);
}

TEST_CASE("mission workflows edit refuses a cycle by name and keeps the edit to fix") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const std::string id = created_workflow(instance, repo);

  ProcessResult refused = edit_with(instance, id, R"(summary = "s"
approach = "a"
[[tasks]]
name = "db"
description = "make db"
depends_on = ["api"]
[[tasks]]
name = "api"
description = "make api"
depends_on = ["db"]
)");
  CHECK(refused.exit_code == 1);
  INFO(refused.err);
  CHECK(refused.err.find("cycle") != std::string::npos);
  CHECK(refused.err.find("db") != std::string::npos);
  CHECK(refused.err.find("api") != std::string::npos);
  // Nothing changed, and what was typed is kept to fix and apply.
  CHECK(task_names(instance, id) == std::vector<std::string>{"db", "api"});
  CHECK(mission_json(instance, {"plan", id})["edges"].size() == 1);
  CHECK(refused.err.find("your edit is kept in") != std::string::npos);
  std::vector<fs::path> edits;
  for (const auto& entry : fs::directory_iterator(instance.root.path() / "edits"))
    edits.push_back(entry.path());
  REQUIRE(edits.size() == 1);
  const std::string kept = edits.front().string();
  CHECK(refused.err.find(edits.front().filename().string().substr(0, 20)) != std::string::npos);
  REQUIRE(fs::exists(kept));
  write_file(kept, std::string(kPlan) + "[[tasks]]\nname = \"docs\"\ndescription = \"d\"\n");
  ProcessResult applied = run_mission(instance, {"workflows", "edit", id, "--from", kept});
  INFO(applied.err);
  CHECK(applied.exit_code == 0);
  CHECK(task_names(instance, id) == std::vector<std::string>{"db", "api", "docs"});
  fs::remove(kept);
}

TEST_CASE("mission workflows edit refuses a plan whose tasks started, before any editor opens") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"good", {}}, {"flaky", {"good"}}});
  ProcessResult failed = run_long(
      instance, {"workflows", "run", workflow, "--max-attempts", "1", "--", "/bin/sh", "-c",
                 "[ \"$MISSION_TASK_NAME\" = flaky ] && exit 3; echo ok > \"$MISSION_TASK_NAME\""});
  INFO(failed.out << failed.err);
  REQUIRE(failed.exit_code != 0);

  ProcessResult refused = edit_with(instance, workflow, kPlan);
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("has started tasks (good and 1 more)") != std::string::npos);
  CHECK(refused.err.find("mission workflows reset " + workflow) != std::string::npos);
  CHECK_FALSE(fs::exists(instance.root.path() / "editor-ran"));
  // The daemon refuses the same plan given as a file.
  const fs::path file = instance.root.path() / "plan.toml";
  write_file(file, kPlan);
  refused = run_mission(instance, {"workflows", "edit", workflow, "--from", file.string()});
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  // (The run ended it, so the daemon says that first.)
  CHECK(refused.err.find("workflow " + workflow + " is already") != std::string::npos);
  CHECK(refused.err.find("mission workflows create NAME --from FILE") != std::string::npos);
  CHECK(task_names(instance, workflow) == std::vector<std::string>{"good", "flaky"});
}
