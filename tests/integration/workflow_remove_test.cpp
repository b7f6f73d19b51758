// mission workflows rm: a workflow nothing works on is deleted with its
// tasks, whether a plan file or an agent made it and however far it got; a
// running one is refused, saying to stop it first.

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

TEST_CASE("mission workflows rm deletes a workflow left in planning, with nothing of it left") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  // Made by an agent that never set its plan: it would stay in planning.
  const std::string id =
      planner.ok("workflow_create",
                 {{"name", "half-made"}, {"source_type", "prompt"}, {"source_content", "x"}})["id"];
  const std::string planned = make_workflow(planner, {{"a", {}}, {"b", {"a"}}});
  const std::string task = mission_json(instance, {"workflows", "show", planned})["tasks"][0]["id"];
  ProcessResult removed = run_mission(instance, {"workflows", "rm", id});
  INFO(removed.err);
  REQUIRE(removed.exit_code == 0);
  CHECK(removed.out == "Workflow " + id + " (half-made, planning) deleted with its 0 tasks.\n");
  removed = run_mission(instance, {"--json", "workflows", "rm", planned});
  INFO(removed.err);
  REQUIRE(removed.exit_code == 0);
  CHECK(json::parse(removed.out)["tasksDeleted"] == 2);
  CHECK(mission_json(instance, {"workflows", "list"})["workflows"].empty());
  ProcessResult gone = run_mission(instance, {"workflows", "show", planned});
  CHECK(gone.exit_code == 1);
  CHECK(gone.err.find("no workflow matches '" + planned + "'") != std::string::npos);
  gone = run_mission(instance, {"workflows", "rm", planned});
  CHECK(gone.exit_code == 1);
  CHECK(gone.err.find("no workflow matches '" + planned + "'") != std::string::npos);
  // Its tasks went with it.
  CHECK(planner.error_code("task_get", {{"id", task}}) == "not_found");
}

TEST_CASE("mission workflows rm refuses a running workflow until it is stopped") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"slow", {}}});
  ProcessResult started = run_long(
      instance, {"workflows", "run", workflow, "--detach", "--", "/bin/sh", "-c", "sleep 30"});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& run) {
    return !run["tasks"][0]["attempts"].empty() &&
           run["tasks"][0]["attempts"][0]["status"] == "running";
  });
  ProcessResult refused = run_mission(instance, {"workflows", "rm", workflow});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("workflow " + workflow + " is running") != std::string::npos);
  CHECK(refused.err.find("mission workflows stop " + workflow) != std::string::npos);
  CHECK(mission_json(instance, {"workflows", "list"})["workflows"].size() == 1);

  ProcessResult stopped = run_mission(instance, {"workflows", "stop", workflow});
  INFO(stopped.err);
  REQUIRE(stopped.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "stopped"; });
  // The stopped task's worktree is removed in the background; until it is
  // gone, rm says so.
  ProcessResult removed = run_mission(instance, {"workflows", "rm", workflow});
  eventually(
      [&] {
        if (removed.exit_code == 0) return true;
        INFO(removed.err);
        REQUIRE(removed.err.find("git worktree") != std::string::npos);
        removed = run_mission(instance, {"workflows", "rm", workflow});
        return false;
      },
      30s, 50ms);
  INFO(removed.out << removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(mission_json(instance, {"workflows", "list"})["workflows"].empty());
}
