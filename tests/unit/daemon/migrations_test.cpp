#include <catch2/catch.hpp>
#include <filesystem>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace mission::store;

namespace {

struct TempDb {
  mission::test::TempDir dir;
  fs::path file() const { return dir.path() / "mission.db"; }
};

bool table_exists(Database& db, const std::string& name) {
  auto statement = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  statement.bind(1, name);
  return statement.step();
}

}  // namespace

TEST_CASE("a fresh database migrates to the latest version in WAL mode") {
  TempDb temp;
  Database db(temp.file());
  CHECK(schema_version(db) == 0);
  migrate(db);
  CHECK(schema_version(db) == latest_schema_version());
  CHECK(table_exists(db, "executions"));
  CHECK(table_exists(db, "observations"));
  CHECK(table_exists(db, "messages"));  // migration 6: agents and messages (ADR 17)
  auto columns = db.prepare("SELECT count(*) FROM pragma_table_info('executions') WHERE name IN "
                            "('agent_name', 'agent_capabilities', 'last_heartbeat_at')");
  REQUIRE(columns.step());
  CHECK(columns.integer(0) == 3);
  auto mode = db.prepare("PRAGMA journal_mode");
  REQUIRE(mode.step());
  CHECK(mode.text(0) == "wal");
}

TEST_CASE("migrating twice changes nothing and keeps the data") {
  TempDb temp;
  {
    Database db(temp.file());
    migrate(db);
    ExecutionRepository(db).insert(mission::test::sample_execution("e1", mission::ExecutionState::created));
  }
  Database db(temp.file());
  migrate(db);
  CHECK(schema_version(db) == latest_schema_version());
  auto found = ExecutionRepository(db).find("e1");
  REQUIRE(found);
  CHECK(found->state == mission::ExecutionState::created);
}

TEST_CASE("a database from a newer mission is refused") {
  TempDb temp;
  Database db(temp.file());
  db.exec("PRAGMA user_version = " + std::to_string(latest_schema_version() + 1));
  CHECK_THROWS_AS(migrate(db), mission::MissionError);
}

TEST_CASE("the observation ledger accepts an eventId once per execution") {
  TempDb temp;
  Database db(temp.file());
  migrate(db);
  ExecutionRepository(db).insert(mission::test::sample_execution("e1", mission::ExecutionState::running, mission::Delivery::mcp_tool));
  ExecutionRepository(db).insert(mission::test::sample_execution("e2", mission::ExecutionState::running, mission::Delivery::mcp_tool));

  ObservationRepository ledger(db);
  ObservationRow row;
  row.execution_id = "e1";
  row.event_id = "ev-1";
  row.origin = "mcp";
  row.kind = "progress";
  row.payload = R"({"summary":"x"})";
  row.status = mission::ObservationStatus::accepted;
  auto first = ledger.insert_unique(row);
  REQUIRE(first);
  CHECK(!ledger.insert_unique(row));
  row.execution_id = "e2";
  CHECK(ledger.insert_unique(row));
  CHECK(ledger.count("e1") == 1);
  CHECK(ledger.count_all() == 2);
  CHECK(ledger.find("e1", "ev-1")->id == *first);
}

TEST_CASE("migration 15 takes the stored environment, secrets and tokens, out of runs' options") {
  TempDb temp;
  {
    Database db(temp.file());
    migrate_to(db, 14);
    db.exec("INSERT INTO missions (id, kind, name, status, cwd, execution_id, created_at, updated_at) "
            "VALUES ('wf-1', 'planned', 'w', 'in_progress', '/r', NULL, 1, 1)");
    db.exec("INSERT INTO runs (id, workflow_id, status, options, repository, integration_branch, base_commit, "
            "created_at) VALUES ('run-1', 'wf-1', 'running', '{\"adapter\":\"generic\",\"env\":{\"MISSION_MCP_TOKEN\":"
            "\"secret-token\",\"OPENAI_API_KEY\":\"sk-1\"},\"parallel\":2}', '/r', 'mission/run/wf-1', 'abc', 1)");
  }
  Database db(temp.file());
  migrate(db);
  auto s = db.prepare("SELECT options FROM runs WHERE id = 'run-1'");
  REQUIRE(s.step());
  const std::string options = s.text(0);
  CHECK(options.find("secret-token") == std::string::npos);
  CHECK(options.find("sk-1") == std::string::npos);
  CHECK(options.find("\"parallel\":2") != std::string::npos);
}
