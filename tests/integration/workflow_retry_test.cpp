// A failed run is not the end: mission workflows reset puts failed tasks
// back to ready, and mission workflows run on a workflow that failed retries
// what failed, saying so, then merges it like any run.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A run of `workflow`, one attempt a task, by a generic agent that runs the
// shell snippet `before` (it may exit), then writes NAME.txt.
std::vector<std::string> run_args(const std::string& workflow, const std::string& before) {
  return {"workflows",
          "run",
          workflow,
          "--max-attempts",
          "1",
          "--",
          "/bin/sh",
          "-c",
          before + "\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\""};
}

}  // namespace

TEST_CASE("mission workflows run retries what failed in a workflow that failed") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"good", {}}, {"flaky", {"good"}}});
  ProcessResult failed =
      run_long(instance, run_args(workflow, "[ \"$MISSION_TASK_NAME\" = flaky ] && exit 3"));
  INFO(failed.out << failed.err);
  REQUIRE(failed.exit_code != 0);
  CHECK(run_status(instance, workflow)["status"] == "partial");

  // A task that did not fail, or that the workflow does not have, is not reset.
  ProcessResult refused = run_mission(instance, {"workflows", "reset", workflow, "good"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("task 'good' is completed, not failed") != std::string::npos);
  refused = run_mission(instance, {"workflows", "reset", workflow, "nope"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("no task in " + workflow + " matches 'nope'") != std::string::npos);

  ProcessResult again = run_long(instance, run_args(workflow, ""));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("retrying what failed in workflow " + workflow + ": flaky") !=
        std::string::npos);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  CHECK(task_of(run, "flaky")["status"] == "merged");
  CHECK(mission_json(instance, {"workflows", "show", workflow})["status"] == "completed");
  CHECK(show(instance, repo, "mission/run/" + workflow + ":flaky.txt") == "flaky\n");
  CHECK(show(instance, repo, "mission/run/" + workflow + ":good.txt") == "good\n");
}

TEST_CASE("mission workflows reset puts one failed task back to ready") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  ProcessResult failed = run_long(instance, run_args(workflow, "exit 3"));
  REQUIRE(failed.exit_code != 0);
  ProcessResult reset = run_mission(instance, {"--json", "workflows", "reset", workflow, "two"});
  INFO(reset.err);
  REQUIRE(reset.exit_code == 0);
  const json result = json::parse(reset.out);
  CHECK(result["tasksReset"] == json{"two"});
  CHECK(result["previousStatus"] == "failed");
  CHECK(result["status"] == "ready");
  json next = mission_json(instance, {"next", workflow});
  REQUIRE(next["tasks"].size() >= 1);
  bool two_ready = false;
  for (const auto& task : next["tasks"]) two_ready = two_ready || task["name"] == "two";
  CHECK(two_ready);
  reset = run_mission(instance, {"workflows", "reset", workflow});
  INFO(reset.err);
  CHECK(reset.exit_code == 0);
  CHECK(reset.out.find("1 task back to ready (one)") != std::string::npos);
}

TEST_CASE("an agent that cannot start stops the run after its first attempt, saying what to fix") {
  // The second task's worktree, made ahead, is ready only after the first
  // agent failed to start: it must not launch, nor keep the run alive.
  ArmedFaults late_worktree("worktree_made:slow@2");
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  ProcessResult failed = run_long(
      instance, {"workflows", "run", workflow, "--max-attempts", "3", "--", "./no-such-agent.sh"});
  INFO(failed.out << failed.err);
  CHECK(failed.exit_code != 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "failed");
  const std::string reason = run.value("reason", "");
  CHECK(reason.find("cannot start './no-such-agent.sh'") != std::string::npos);
  CHECK(reason.find("a relative path is looked up in each task's worktree") != std::string::npos);
  CHECK(reason.find("the run stops here") != std::string::npos);
  // One attempt in all: no retry of it, no other task tried the same command.
  CHECK(run["attemptsTotal"] == 1);
  CHECK(task_of(run, "one")["status"] == "failed");
}
