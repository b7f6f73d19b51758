// Workflows and tasks named as people type them, through the real CLI and
// daemon: a unique prefix of the id, the name, @last, a did-you-mean for a
// typo, the ids a prefix shared by several matches, and a workflow that does
// not exist told apart from one never run.

#include <catch2/catch.hpp>
#include <string>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* const kPlan = R"(summary = "Add a health endpoint"
approach = "endpoint, then docs"

[[tasks]]
name = "endpoint"
description = "make the endpoint"

[[tasks]]
name = "docs"
description = "document it"
depends_on = ["endpoint"]
)";

// A workflow made from kPlan with `mission workflows create NAME`: its id.
std::string create_workflow(const Instance& instance, const fs::path& repo,
                            const std::string& name) {
  const fs::path file = instance.root.path() / "plan.toml";
  write_file(file, kPlan);
  ProcessResult made = run_mission(instance, {"--json", "workflows", "create", name, "--from",
                                              file.string(), "--cwd", repo.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return json::parse(made.out)["workflowId"];
}

std::string shown_id(const Instance& instance, const std::string& reference) {
  ProcessResult shown = run_mission(instance, {"--json", "workflows", "show", reference});
  INFO(reference << ": " << shown.err);
  REQUIRE(shown.exit_code == 0);
  return json::parse(shown.out)["id"];
}

}  // namespace

TEST_CASE("A workflow is named by a prefix of its id, its name or @last") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const std::string first = create_workflow(instance, repo, "health-endpoint");
  const std::string second = create_workflow(instance, repo, "release-notes");

  CHECK(shown_id(instance, "health-endpoint") == first);
  CHECK(shown_id(instance, "@last") == second);
  CHECK(shown_id(instance, first.substr(0, 7)) == first);  // wf- and four characters
  CHECK(shown_id(instance, first.substr(3, 6)) == first);  // without its wf-
  // The commands that take WF all resolve it the same way.
  ProcessResult plan = run_mission(instance, {"plan", "release-notes"});
  INFO(plan.err);
  CHECK(plan.exit_code == 0);
  CHECK(plan.out.find("(" + second + ",") != std::string::npos);
  ProcessResult tasks = run_mission(instance, {"--json", "tasks", "@last"});
  INFO(tasks.err);
  CHECK(tasks.exit_code == 0);
  CHECK(json::parse(tasks.out)["missionId"] == second);
  ProcessResult report = run_mission(instance, {"--json", "report", "health-endpoint"});
  INFO(report.err);
  CHECK(report.exit_code == 0);
  ProcessResult next = run_mission(instance, {"--json", "next", first.substr(0, 8)});
  INFO(next.err);
  CHECK(next.exit_code == 0);
  ProcessResult removed = run_mission(instance, {"workflows", "rm", "release-notes"});
  INFO(removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(removed.out.find(second) != std::string::npos);
  // Gone, @last is the one that is left.
  CHECK(shown_id(instance, "@last") == first);
}

TEST_CASE("A mistyped workflow gets a did-you-mean, and a shared prefix lists its matches") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  create_workflow(instance, repo, "health-endpoint");

  ProcessResult typo = run_mission(instance, {"workflows", "show", "helth-endpoint"});
  CHECK(typo.exit_code == 1);
  CHECK(typo.err.find("no workflow matches 'helth-endpoint'; did you mean 'health-endpoint'?") !=
        std::string::npos);
  CHECK(typo.err.find("mission workflows list") != std::string::npos);

  // Two ids that share their first characters (given by hand: random ones
  // rarely do): the prefix names neither, and both are listed.
  for (const char* name : {"first-plan", "second-plan"}) {
    const std::string id =
        planner.ok("workflow_create",
                   {{"name", name}, {"source_type", "prompt"}, {"source_content", "x"}})["id"];
    mission::store::Database db(instance.state_dir() / "mission.db");
    db.exec("UPDATE missions SET id = 'wf-abcdef" + std::string(name).substr(0, 1) +
            "000' WHERE id = '" + id + "'");
  }
  ProcessResult shared = run_mission(instance, {"workflows", "show", "abcdef"});
  CHECK(shared.exit_code == 1);
  CHECK(shared.err.find("wf-abcdeff000 (first-plan), wf-abcdefs000 (second-plan)") !=
        std::string::npos);
  CHECK(shown_id(instance, "wf-abcdefs") == "wf-abcdefs000");
  // Too short to be a prefix, and near nothing.
  ProcessResult short_word = run_mission(instance, {"workflows", "show", "abc"});
  CHECK(short_word.exit_code == 1);
  CHECK(short_word.err.find("no workflow matches 'abc'") != std::string::npos);
}

TEST_CASE("mission workflows status tells a workflow that does not exist from one never run") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  create_workflow(instance, repo, "health-endpoint");

  ProcessResult missing = run_mission(instance, {"workflows", "status", "NONEXISTENT"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("no workflow matches 'NONEXISTENT'") != std::string::npos);
  CHECK(missing.err.find("never been run") == std::string::npos);
  ProcessResult idle = run_mission(instance, {"workflows", "status", "health-endpoint"});
  CHECK(idle.exit_code == 1);
  CHECK(idle.err.find("has never been run") != std::string::npos);
}

TEST_CASE("A task is named by its name or a prefix of its id, within its workflow") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const std::string first = create_workflow(instance, repo, "health-endpoint");
  create_workflow(instance, repo, "release-notes");
  const json tasks = mission_json(instance, {"workflows", "show", first})["tasks"];
  const std::string docs = tasks[1]["id"];

  ProcessResult by_name = run_mission(instance, {"--json", "tasks", first, "--task", "docs"});
  INFO(by_name.err);
  CHECK(by_name.exit_code == 0);
  CHECK(json::parse(by_name.out)["taskId"] == docs);
  ProcessResult by_prefix =
      run_mission(instance, {"--json", "tasks", "health-endpoint", "--task", docs.substr(0, 8)});
  INFO(by_prefix.err);
  CHECK(by_prefix.exit_code == 0);
  CHECK(json::parse(by_prefix.out)["taskId"] == docs);
  // Both workflows have a task named docs: without a workflow, the name
  // names two, and both are listed.
  ProcessResult approve = run_mission(instance, {"approve", "docs"});
  CHECK(approve.exit_code == 1);
  CHECK(approve.err.find("'docs' names several tasks") != std::string::npos);
  CHECK(approve.err.find(docs + " (in " + first + ")") != std::string::npos);
  ProcessResult typo = run_mission(instance, {"workflows", "reset", first, "dosc"});
  CHECK(typo.exit_code == 1);
  CHECK(typo.err.find("did you mean 'docs'?") != std::string::npos);
}

TEST_CASE("mission __complete workflows offers ids, names and @last") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const std::string id = create_workflow(instance, repo, "health-endpoint");
  ProcessResult listed = run_mission(instance, {"__complete", "workflows"});
  CHECK(listed.exit_code == 0);
  CHECK(listed.out == id + "\nhealth-endpoint\n@last\n");
}
