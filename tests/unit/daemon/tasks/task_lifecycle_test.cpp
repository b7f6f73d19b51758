// The task aggregate on a real SQLite file (docs/adr/0047): the status
// changes it allows, the fields each writes, and the planned workflow
// following its tasks whichever operation moved them.

#include "daemon/tasks/task_lifecycle.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/planning/workflows.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

using namespace mission;
using namespace mission::daemon;
using nlohmann::json;

namespace {

struct Fixture {
  test::TempDir dir;
  store::Database db{dir.path() / "mission.db"};
  planning::Caller caller{db, "ae-planner", nullptr, nullptr, {}};
  std::vector<std::string> announced;  // "kind id" of each change told
  tasks::TaskLifecycle lifecycle{
      db, [this](std::string_view kind, std::string_view, const std::string& id) {
        announced.push_back(std::string(kind) + " " + id);
      }};
  std::string workflow;

  Fixture() {
    store::migrate(db);
    store::ExecutionRepository(db).insert(
        test::sample_execution("ae-planner", ExecutionState::running, Delivery::mcp_tool));
    planning::WorkflowCreateRequest create{"w",          "prompt", std::nullopt, "source",
                                           std::nullopt, 2,        false};
    workflow = planning::workflow_create(caller, create)["id"];
    planning::WorkflowSetPlanRequest plan;
    plan.id = workflow;
    plan.plan.summary = "s";
    plan.plan.approach = "a";
    for (const char* name : {"a", "b"}) {
      planning::PlanTaskInput task;
      task.name = name;
      task.description = "d";
      plan.plan.tasks.push_back(std::move(task));
    }
    planning::workflow_set_plan(caller, plan);
  }

  store::PlannedTaskRow task(const std::string& name) {
    auto ref = store::PlanRepository(db).planned_task_ref(workflow, name);
    return *store::PlanRepository(db).task(ref->id);
  }
  MissionStatus workflow_status() { return store::MissionRepository(db).find(workflow)->status; }
};

}  // namespace

TEST_CASE(
    "the lifecycle allows each status change from where the seed allows it, and says why not") {
  using tasks::refusal;
  CHECK_FALSE(refusal(TaskStatus::pending, TaskStatus::in_progress));
  CHECK_FALSE(refusal(TaskStatus::failed, TaskStatus::in_progress));
  CHECK(refusal(TaskStatus::success, TaskStatus::in_progress) ==
        std::string_view("only a pending or failed task starts"));
  CHECK_FALSE(refusal(TaskStatus::in_progress, TaskStatus::success));
  CHECK(refusal(TaskStatus::skipped, TaskStatus::failed) ==
        std::string_view("it has already ended"));
  CHECK(refusal(TaskStatus::in_progress, TaskStatus::skipped).has_value());
  CHECK_FALSE(refusal(TaskStatus::failed, TaskStatus::pending));
  CHECK(refusal(TaskStatus::in_progress, TaskStatus::pending) ==
        std::string_view("only a failed task goes back to pending (a retry)"));
  CHECK(refusal(TaskStatus::pending, TaskStatus::partial_success).has_value());
}

TEST_CASE("a planned workflow follows its tasks whichever operation moves them") {
  Fixture f;
  REQUIRE(f.workflow_status() == MissionStatus::ready);
  store::PlannedTaskRow a = f.task("a");
  f.lifecycle.start(a, "ae-planner", 1000);
  CHECK(f.workflow_status() == MissionStatus::in_progress);
  CHECK(f.task("a").claimed_by == "ae-planner");
  CHECK(f.task("a").started_at == 1000);

  f.lifecycle.succeed(a, json{{"summary", "done"}}.dump(), 2000);
  CHECK(f.workflow_status() == MissionStatus::in_progress);
  store::PlannedTaskRow b = f.task("b");
  f.lifecycle.land(b, "merged into main at abc", 3000);
  CHECK(f.workflow_status() == MissionStatus::completed);
  CHECK(f.announced.back() == "mission " + f.workflow);
  const json outcome = json::parse(*f.task("b").outcome);
  CHECK(outcome["merged"] == "merged into main at abc");
  CHECK(f.task("b").started_at == 3000);
}

TEST_CASE(
    "landing keeps the outcome its agent gave, and going back to pending clears the attempt") {
  Fixture f;
  store::PlannedTaskRow a = f.task("a");
  f.lifecycle.start(a, "ae-planner", 1000);
  f.lifecycle.fail(a, "the check failed", 1500);
  CHECK(f.task("a").error == "the check failed");
  CHECK(f.task("a").claimed_by == std::nullopt);  // a task that ends is held by nobody

  f.lifecycle.reset(a);
  store::PlannedTaskRow reset = f.task("a");
  CHECK(reset.status == TaskStatus::pending);
  CHECK_FALSE(reset.error);
  CHECK_FALSE(reset.started_at);
  CHECK_FALSE(reset.completed_at);

  reset.outcome = json{{"summary", "what the agent said"}}.dump();
  f.lifecycle.land(reset, "merged at def", 2000);
  const json outcome = json::parse(*f.task("a").outcome);
  CHECK(outcome["summary"] == "what the agent said");
  CHECK(outcome["merged"] == "merged at def");
}

TEST_CASE("claims go through the lifecycle: one holder, announced, released back to pending") {
  Fixture f;
  const std::string id = f.task("a").id;
  store::ExecutionRepository(f.db).insert(
      test::sample_execution("ae-other", ExecutionState::running, Delivery::mcp_tool));
  CHECK(f.lifecycle.claim(id, "ae-planner", 1000));
  CHECK_FALSE(f.lifecycle.claim(id, "ae-other", 1001));
  CHECK(f.announced == std::vector<std::string>{"task " + id});
  store::PlannedTaskRow a = f.task("a");
  f.lifecycle.start(a, "ae-planner", 1002);
  CHECK(f.lifecycle.release(id, "ae-planner", "released", "stepping away", 1003));
  CHECK(f.task("a").status == TaskStatus::pending);
  CHECK_FALSE(f.lifecycle.release(id, "ae-planner", "released", "again", 1004));
}
