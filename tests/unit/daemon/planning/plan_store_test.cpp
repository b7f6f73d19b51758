// Planned work on a real SQLite file (docs/adr/0015): a plan replaced
// before any task started leaves none of the old tasks or edges; one with a
// started task is refused, naming it; the DAG cache brings a kept state up
// to date after task changes (equal to a fresh load) and reloads a
// replaced plan; a task added by index answers as a full load would; a
// graph and a record read in pages join to the whole ones.

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "daemon/planning/plan_cache.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/tracking/mission_check.hpp"
#include "shared/error_code.hpp"
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

  Fixture() {
    store::migrate(db);
    store::ExecutionRepository(db).insert(
        test::sample_execution("ae-planner", ExecutionState::running, Delivery::mcp_tool));
  }

  std::string create() {
    planning::WorkflowCreateRequest request{"w",          "prompt", std::nullopt, "source",
                                            std::nullopt, 2,        false};
    return planning::workflow_create(caller, request)["id"];
  }

  // A chain of `n` tasks named prefix0..prefixN-1, each depending on the previous.
  json set_chain(const std::string& id, const std::string& prefix, std::size_t n) {
    planning::WorkflowSetPlanRequest request;
    request.id = id;
    request.plan.summary = "s";
    request.plan.approach = "a";
    for (std::size_t i = 0; i < n; ++i) {
      planning::PlanTaskInput task;
      task.name = prefix + std::to_string(i);
      task.description = "d";
      task.sequence = static_cast<std::int64_t>(i);
      if (i > 0) task.depends_on = {prefix + std::to_string(i - 1)};
      request.plan.tasks.push_back(std::move(task));
    }
    return planning::workflow_set_plan(caller, request);
  }

  std::int64_t count(const std::string& sql) {
    auto s = db.prepare(sql);
    s.step();
    return s.integer(0);
  }
};

}  // namespace

TEST_CASE("a plan replaced before any task started leaves none of the old tasks or edges") {
  Fixture f;
  const std::string id = f.create();
  CHECK(f.set_chain(id, "old", 5)["dependencies"] == 4);
  const json replaced = f.set_chain(id, "new", 3);
  CHECK(replaced["tasks_created"] == 3);
  CHECK(f.count("SELECT count(*) FROM tasks WHERE name LIKE 'old%'") == 0);
  CHECK(f.count("SELECT count(*) FROM tasks WHERE name LIKE 'new%'") == 3);
  CHECK(f.count("SELECT count(*) FROM task_dependencies") == 2);
  // Every edge joins two of the new tasks.
  CHECK(f.count("SELECT count(*) FROM task_dependencies d JOIN tasks a ON a.id = d.task_id "
                "JOIN tasks b ON b.id = d.depends_on_id WHERE a.name LIKE 'new%' AND b.name LIKE "
                "'new%'") == 2);
}

TEST_CASE("a plan with a started task is not replaced, and the refusal names the task") {
  Fixture f;
  const std::string id = f.create();
  f.set_chain(id, "t", 3);
  f.db.exec("UPDATE tasks SET status = 'in_progress', started_at = 1 WHERE name = 't1'");
  try {
    f.set_chain(id, "u", 2);
    FAIL("the plan was replaced");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::invalid_argument);
    CHECK(std::string(e.what()).find("(t1)") != std::string::npos);
  }
  CHECK(f.count("SELECT count(*) FROM tasks WHERE name LIKE 't%'") == 3);
  CHECK(f.count("SELECT count(*) FROM task_dependencies") == 2);
}

namespace {

// The parts of a state a task's progress changes, for comparing two states.
json progress_of(const planning::PlanState& state) {
  json out = {{"status", state.workflow_status}, {"max_parallel", state.max_parallel_tasks}};
  for (const auto& task : state.tasks) {
    out["tasks"].push_back({task.id, task.status, task.started_at.value_or(-1),
                            task.completed_at.value_or(-1), task.outcome_summary.value_or("")});
  }
  return out;
}

}  // namespace

TEST_CASE("a kept DAG brought up to date after task changes equals one loaded afresh") {
  Fixture f;
  const std::string id = f.create();
  f.set_chain(id, "t", 8);
  planning::PlanCache cache;
  auto before = cache.get(f.db, id);  // held across the changes: it must stay as it was
  CHECK(before->tasks[0].status == TaskStatus::pending);
  std::mt19937 rng(7);
  const char* statuses[] = {"pending", "in_progress", "success", "failed", "skipped"};
  for (int round = 0; round < 20; ++round) {
    const int changes = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < changes; ++c) {
      const std::string name = "t" + std::to_string(rng() % 8);
      const std::string status = statuses[rng() % 5];
      f.db.exec("UPDATE tasks SET status = '" + status +
                "', started_at = " + std::to_string(round) +
                ", completed_at = " + std::to_string(round + 1) + ", outcome = '{\"summary\":\"r" +
                std::to_string(round) + "\"}' WHERE name = '" + name + "'");
    }
    if (round % 5 == 0) {
      store::PlanRepository(f.db).set_status(id, MissionStatus::paused, std::nullopt, round);
    }
    auto kept = cache.get(f.db, id);
    CHECK(progress_of(*kept) == progress_of(planning::load_plan_state(f.db, id)));
  }
  CHECK(cache.loads() == 1);
  CHECK(cache.refreshes() == 20);
  CHECK(before->tasks[0].status == TaskStatus::pending);
  CHECK(before->tasks[0].started_at == std::nullopt);
}

TEST_CASE("a kept DAG is loaded afresh once its plan was replaced") {
  Fixture f;
  const std::string id = f.create();
  f.set_chain(id, "t", 4);
  planning::PlanCache cache;
  CHECK(cache.get(f.db, id)->tasks.size() == 4);
  f.set_chain(id, "u", 4);  // as many tasks, other ids
  auto state = cache.get(f.db, id);
  CHECK(state->tasks.front().name == "u0");
  CHECK(state->dag.prerequisites(3).size() == 1);
  CHECK(cache.loads() == 2);
}

TEST_CASE("a plan larger than one INSERT carries is written whole, every edge as asked") {
  Fixture f;
  const std::string id = f.create();
  // 1,234 tasks (three statements' worth) and up to 3 edges each: 3,600
  // edges, more than one statement of edges carries.
  planning::WorkflowSetPlanRequest request;
  request.id = id;
  request.plan.summary = "s";
  request.plan.approach = "a";
  std::mt19937 rng(7);
  std::set<std::pair<std::string, std::string>> wanted;
  for (std::size_t i = 0; i < 1234; ++i) {
    planning::PlanTaskInput task;
    task.name = "t" + std::to_string(i);
    task.description = "d" + std::to_string(i);
    task.sequence = static_cast<std::int64_t>(i / 10);
    for (int k = 0; k < 3 && i >= 10; ++k) {
      const std::string on = "t" + std::to_string(rng() % ((i / 10) * 10));
      if (wanted.insert({task.name, on}).second) task.depends_on.push_back(on);
    }
    request.plan.tasks.push_back(std::move(task));
  }
  const json result = planning::workflow_set_plan(f.caller, request);
  CHECK(result["tasks_created"] == 1234);
  CHECK(result["dependencies"] == wanted.size());
  CHECK(f.count("SELECT count(*) FROM tasks WHERE mission_id = '" + id + "'") == 1234);
  // Each task in its place, with its own description.
  CHECK(f.count("SELECT count(*) FROM tasks WHERE mission_id = '" + id +
                "' AND name = 't' || plan_order AND description = 'd' || plan_order") == 1234);
  std::set<std::pair<std::string, std::string>> stored;
  auto s = f.db.prepare(
      "SELECT a.name, b.name FROM task_dependencies d JOIN tasks a ON a.id = d.task_id "
      "JOIN tasks b ON b.id = d.depends_on_id");
  while (s.step()) stored.insert({s.text(0), s.text(1)});
  CHECK(stored == wanted);
}

TEST_CASE("a task deleted, or its workflow, takes its edges both ways") {
  Fixture f;
  const std::string first = f.create();
  f.set_chain(first, "a", 3);  // a1 -> a0, a2 -> a1
  const std::string second = f.create();
  f.set_chain(second, "b", 4);
  CHECK(f.count("SELECT count(*) FROM task_dependencies") == 5);
  f.db.exec("DELETE FROM tasks WHERE name = 'a1'");
  CHECK(f.count("SELECT count(*) FROM task_dependencies d JOIN tasks t ON t.id = d.task_id "
                "WHERE t.mission_id = '" +
                first + "'") == 0);
  CHECK(f.count("SELECT count(*) FROM task_dependencies") == 3);
  f.db.exec("DELETE FROM missions WHERE id = '" + second + "'");  // its tasks go by cascade
  CHECK(f.count("SELECT count(*) FROM task_dependencies") == 0);
}

TEST_CASE("a version 13 database keeps its plans' edges through migration 14") {
  test::TempDir dir;
  {
    store::Database db(dir.path() / "mission.db");
    store::migrate_to(db, 13);
    REQUIRE(store::schema_version(db) == 13);
    // Today's planning code reads executions with the columns later
    // migrations add: lent for the set-up, taken back before migrating.
    db.exec("ALTER TABLE executions ADD COLUMN sandbox TEXT");
    store::ExecutionRepository(db).insert(
        test::sample_execution("ae-planner", ExecutionState::running, Delivery::mcp_tool));
    planning::Caller caller{db, "ae-planner", nullptr, nullptr, {}};
    planning::WorkflowCreateRequest create{"w",          "prompt", std::nullopt, "source",
                                           std::nullopt, 2,        false};
    const std::string id = planning::workflow_create(caller, create)["id"];
    planning::WorkflowSetPlanRequest request;
    request.id = id;
    request.plan.summary = "s";
    request.plan.approach = "a";
    for (int i = 0; i < 4; ++i) {
      planning::PlanTaskInput task;
      task.name = "t" + std::to_string(i);
      task.description = "d";
      task.sequence = i;
      if (i > 0) task.depends_on = {"t0"};
      if (i == 3) task.depends_on.push_back("t2");
      request.plan.tasks.push_back(std::move(task));
    }
    planning::workflow_set_plan(caller, request);
    db.exec("ALTER TABLE executions DROP COLUMN sandbox");
  }
  store::Database db(dir.path() / "mission.db");
  store::migrate(db);
  CHECK(store::schema_version(db) == store::latest_schema_version());
  auto count = [&](const std::string& sql) {
    auto s = db.prepare(sql);
    s.step();
    return s.integer(0);
  };
  CHECK(count("SELECT count(*) FROM task_dependencies d JOIN tasks a ON a.id = d.task_id "
              "JOIN tasks b ON b.id = d.depends_on_id") == 4);
  CHECK(count("SELECT count(*) FROM pragma_foreign_key_list('task_dependencies')") == 0);
  CHECK(
      count(
          "SELECT count(*) FROM sqlite_master WHERE name IN ('tasks_by_phase', 'tasks_by_parent') "
          "AND sql LIKE '%IS NOT NULL'") == 2);
  db.exec("DELETE FROM tasks WHERE name = 't0'");
  CHECK(count("SELECT count(*) FROM task_dependencies") == 1);  // t3 -> t2
}

TEST_CASE("a task added by index answers as a full load of its plan does") {
  Fixture f;
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    const std::string id = f.create();
    planning::WorkflowSetPlanRequest request;
    request.id = id;
    request.plan.summary = "s";
    request.plan.approach = "a";
    const int n = 1 + static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) {
      planning::PlanTaskInput task;
      task.name = "t" + std::to_string(i);
      task.description = "d";
      task.sequence = static_cast<std::int64_t>(rng() % 4);
      if (i > 0 && rng() % 2 == 0) task.depends_on = {"t" + std::to_string(rng() % i)};
      request.plan.tasks.push_back(std::move(task));
    }
    try {
      planning::workflow_set_plan(f.caller, request);
    } catch (const MissionError&) {
      continue;  // a cycle through the sequence order
    }
    f.db.exec("UPDATE tasks SET status = 'success' WHERE mission_id = '" + id +
              "' AND random() % 2 = 0");
    std::int64_t last_sequence = 0;
    for (const auto& task : request.plan.tasks)
      last_sequence = std::max(last_sequence, task.sequence);
    for (int added = 0; added < 5; ++added) {
      planning::TaskAddRequest add;
      add.workflow_id = id;
      add.task.name = "added" + std::to_string(added);
      add.task.description = "d";
      if (rng() % 2 == 0) {
        add.sequence_given = true;
        add.task.sequence = last_sequence + static_cast<std::int64_t>(rng() % 2);
        last_sequence = add.task.sequence;
      }
      if (rng() % 2 == 0) add.task.depends_on = {"t" + std::to_string(rng() % n), "t0"};
      const planning::TaskAdded made = planning::task_add(f.caller, add);
      planning::TaskGetRequest get;
      get.id = made.id;
      json loaded = planning::task_get(f.db, nullptr, get, KeyStyle::snake);
      INFO("round " << round << " added " << added);
      CHECK(made.name == add.task.name);
      CHECK(json(made.depends_on) == loaded["depends_on"]);
      CHECK(planning::seed_task_status(TaskStatus::pending, made.ready) == loaded["status"]);
    }
    CHECK(f.count("SELECT count(DISTINCT plan_order) FROM tasks WHERE mission_id = '" + id + "'") ==
          n + 5);
    CHECK(f.count("SELECT max(plan_order) FROM tasks WHERE mission_id = '" + id + "'") == n + 4);
  }
}

TEST_CASE(
    "a graph and a record read in pages are the whole ones, and a plan replaced meanwhile is "
    "refused") {
  Fixture f;
  const std::string id = f.create();
  f.set_chain(id, "a", 300);
  const json whole_graph = planning::workflow_graph(f.db, nullptr, id, KeyStyle::camel);
  const store::MissionRow workflow = *store::MissionRepository(f.db).find(id);
  const json whole_record = tracking::mission_record(f.db, workflow);
  REQUIRE(whole_graph["nodes"].size() == 300);
  REQUIRE(whole_record["tasks"].size() == 300);

  // Every page within its budget, in order, and joined: the whole.
  constexpr std::size_t kBudget = 8192;
  json nodes = json::array();
  json edges = json::array();
  std::size_t pages = 0;
  std::string after;
  std::string first_cursor;
  for (;;) {
    json page = planning::workflow_graph(f.db, nullptr, id, KeyStyle::camel, after, kBudget);
    CHECK(page.dump().size() <= kBudget);
    for (auto& node : page["nodes"]) nodes.push_back(node);
    for (auto& edge : page["edges"]) edges.push_back(edge);
    ++pages;
    if (!page["more"].get<bool>()) break;
    after = page["afterCursor"];
    if (first_cursor.empty()) first_cursor = after;
  }
  CHECK(pages > 2);
  CHECK(nodes == whole_graph["nodes"]);
  CHECK(edges == whole_graph["edges"]);

  json tasks = json::array();
  pages = 0;
  after.clear();
  std::string first_record_cursor;
  for (;;) {
    json page = tracking::mission_record_page(f.db, workflow, after, kBudget);
    CHECK(page.dump().size() <= kBudget);
    CHECK(page["format"] == whole_record["format"]);
    for (auto& task : page["tasks"]) tasks.push_back(task);
    ++pages;
    if (!page["more"].get<bool>()) break;
    after = page["afterCursor"];
    if (first_record_cursor.empty()) first_record_cursor = after;
  }
  CHECK(pages > 2);
  CHECK(tasks == whole_record["tasks"]);

  // The plan replaced after a first page: its cursors no longer go on.
  f.set_chain(id, "b", 300);
  CHECK_THROWS_AS(
      planning::workflow_graph(f.db, nullptr, id, KeyStyle::camel, first_cursor, kBudget),
      MissionError);
  CHECK_THROWS_AS(tracking::mission_record_page(f.db, workflow, first_record_cursor, kBudget),
                  MissionError);
  CHECK_THROWS_AS(tracking::mission_record_page(f.db, workflow, "tasks:x", kBudget), MissionError);
}
