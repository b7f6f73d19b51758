// A plan from the shell: `mission workflows create NAME --from FILE` reads a
// person's TOML or JSON plan, refuses its mistakes by line and task, and
// makes the workflow with all its tasks at once through the real daemon, or
// nothing; the workflow it makes runs like one an agent planned.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* const kPlan = R"(summary = "Add a health endpoint"
approach = "table, then endpoint and docs"
max_parallel_tasks = 2

[[tasks]]
name = "db"
description = "make db"
files_likely_affected = ["db.txt"]
acceptance_criteria = ["db.txt exists"]

[[tasks]]
name = "api"
description = "make api"
depends_on = ["db"]

[[tasks]]
name = "docs"
description = "make docs"
depends_on = ["db"]
)";

// `mission ARGS...` with `input` on its stdin.
ProcessResult mission_with_stdin(const Instance& instance, const fs::path& input,
                                 const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/bin/sh", "-c",           "f=$1; shift; exec \"$@\" <\"$f\"",
                                "sh",      input.string(), MISSION_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, instance.env());
}

std::size_t workflow_count(const Instance& instance) {
  return mission_json(instance, {"workflows", "list"})["workflows"].size();
}

}  // namespace

TEST_CASE("mission workflows create makes a ready workflow from a TOML plan file") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const fs::path file = instance.root.path() / "plan.toml";
  write_file(file, kPlan);

  ProcessResult made = run_mission(
      instance, {"workflows", "create", "health", "--from", file.string(), "--cwd", repo.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  CHECK(made.out.find("created: 3 tasks, 2 dependencies, ready.") != std::string::npos);
  const std::string id = mission_json(instance, {"workflows", "list"})["workflows"][0]["id"];
  CHECK(made.out.find("mission workflows run " + id) != std::string::npos);

  json shown = mission_json(instance, {"workflows", "show", id});
  CHECK(shown["name"] == "health");
  CHECK(shown["status"] == "ready");
  CHECK(shown["maxParallelTasks"] == 2);
  CHECK(shown["plan"]["summary"] == "Add a health endpoint");
  REQUIRE(shown["tasks"].size() == 3);
  // The graph holds the file's depends_on, and only db can start.
  json graph = mission_json(instance, {"plan", id});
  CHECK(graph["edges"].size() == 2);
  json next = mission_json(instance, {"next", id});
  REQUIRE(next["tasks"].size() == 1);
  CHECK(next["tasks"][0]["name"] == "db");

  // It runs as a workflow an agent planned does: every task merged.
  ProcessResult ran =
      run_long(instance, {"workflows", "run", id, "--parallel", "2", "--", "/bin/sh", "-c",
                          "printf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\""});
  INFO(ran.out << ran.err);
  CHECK(ran.exit_code == 0);
  json run = run_status(instance, id);
  CHECK(run["status"] == "completed");
}

TEST_CASE("mission workflows create reads a JSON plan from stdin") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const json plan = {{"summary", "s"},
                     {"approach", "a"},
                     {"tasks",
                      {{{"name", "one"}, {"description", "d"}, {"sequence", 1}},
                       {{"name", "two"}, {"description", "d"}, {"sequence", 2}}}}};
  const fs::path file = instance.root.path() / "plan";
  write_file(file, plan.dump(2));
  ProcessResult made = mission_with_stdin(
      instance, file,
      {"--json", "workflows", "create", "from-stdin", "--from", "-", "--cwd", repo.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  json result = json::parse(made.out);
  CHECK(result["tasksCreated"] == 2);
  CHECK(result["impliedDependencies"] == 1);  // two waits for sequence 1
  CHECK(result["status"] == "ready");
  CHECK(mission_json(instance, {"workflows", "show", result["workflowId"]})["name"] ==
        "from-stdin");
}

TEST_CASE("a refused plan file names its line and task, and leaves no workflow behind") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path file = instance.root.path() / "plan.toml";
  std::string text = kPlan;
  text.replace(text.find("acceptance_criteria"), 0, "depends_on = [\"api\"]\n");
  write_file(file, text);
  ProcessResult refused =
      run_mission(instance, {"workflows", "create", "x", "--from", file.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find(file.string() +
                         ":5: tasks depend on each other in a cycle: `db` waits for `api`, "
                         "which waits for `db`") != std::string::npos);
  write_file(file, std::string(kPlan) +
                       "\n[[tasks]]\nname = \"ui\"\ndescription = \"d\"\n"
                       "depends_on = [\"dbb\"]\n");
  refused = run_mission(instance, {"workflows", "create", "x", "--from", file.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find(file.string() +
                         ":24: task `ui`: depends_on names `dbb`, which no task has") !=
        std::string::npos);
  refused = run_mission(instance, {"workflows", "create", "x", "--from", "/nonexistent/plan.toml"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("cannot read the plan file /nonexistent/plan.toml") != std::string::npos);
  CHECK(workflow_count(instance) == 0);

  // The daemon holds the same line for a client that skips the CLI's
  // checks: nothing of a refused plan is made.
  RawClient client(instance.socket());
  client.hello();
  const json cyclic = {
      {"name", "x"},
      {"cwd", instance.root.path().string()},
      {"plan",
       {{"summary", "s"},
        {"approach", "a"},
        {"tasks",
         {{{"name", "a"}, {"description", "d"}, {"sequence", 0}, {"depends_on", {"b"}}},
          {{"name", "b"}, {"description", "d"}, {"sequence", 0}, {"depends_on", {"a"}}}}}}}};
  json reply = client.call("workflow.create", cyclic);
  REQUIRE(reply.contains("error"));
  CHECK(reply["error"]["message"].get<std::string>().find("cycle") != std::string::npos);
  json unknown = cyclic;
  unknown["plan"]["tasks"][1]["depends_on"] = {"nobody"};
  reply = client.call("workflow.create", unknown);
  REQUIRE(reply.contains("error"));
  CHECK(reply["error"]["message"].get<std::string>().find("nobody") != std::string::npos);
  CHECK(workflow_count(instance) == 0);
}
