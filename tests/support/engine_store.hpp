#pragma once
// A migrated store on the engine the test runs on (store_engine.hpp), with
// the few rows most repository tests need.

#include <filesystem>
#include <string>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
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
  std::string text(const std::string& sql) {
    auto s = db.prepare(sql);
    return s.step() ? s.text(0) : "";
  }
};

}  // namespace mission::test
