#pragma once
// A migrated store on the engine the test runs on (store_engine.hpp), with
// the few rows most repository tests need.

#include <filesystem>
#include <string>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/run_repository.hpp"
#include "support/sample_rows.hpp"
#include "support/store_engine.hpp"
#include "support/temp_dir.hpp"

namespace mission::test {

struct EngineStore {
  TempDir dir;
  std::filesystem::path where = test_store(dir.path());
  store::Database db{where};

  EngineStore() { store::migrate(db); }

  void add_execution(const std::string& id, ExecutionState state = ExecutionState::running) {
    store::ExecutionRepository(db).insert(sample_execution(id, state, Delivery::mcp_tool));
  }
  void add_workflow(const std::string& id) {
    db.prepare(
          "INSERT INTO missions (id, kind, cwd, name, status, created_at, updated_at) "
          "VALUES (?1, 'planned', '/', 'wf', 'ready', 1, 1)")
        .bind(1, id)
        .run();
  }
  void add_task(const std::string& id, const std::string& workflow, int order,
                const std::string& context = "{}") {
    db.prepare(
          "INSERT INTO tasks (id, mission_id, name, goal, areas, status, plan_order, sequence, "
          "task_context, created_at) VALUES (?1, ?2, ?1, 'goal', '[]', 'pending', ?3, 1, ?4, 1)")
        .bind(1, id)
        .bind(2, workflow)
        .bind(3, order)
        .bind(4, context)
        .run();
  }
  // A run of `workflow` started at 1, and the first attempt of its task
  // `task` (AttemptRow's defaults beside), as the run tests need them.
  void add_run(const std::string& id, const std::string& workflow) {
    store::RunRow run;
    run.id = id;
    run.workflow_id = workflow;
    run.options = "{}";
    run.repository = "/repo";
    run.integration_branch = "mission/run/" + workflow;
    run.base_commit = "abc";
    run.created_at = 1;
    store::RunRepository(db).insert(run);
  }
  store::AttemptRow attempt_of(const std::string& run, const std::string& task) const {
    store::AttemptRow attempt;
    attempt.run_id = run;
    attempt.task_id = task;
    return attempt;
  }
  std::string text(const std::string& sql) {
    auto s = db.prepare(sql);
    return s.step() ? s.text(0) : "";
  }
};

}  // namespace mission::test
