#include "daemon/store/migrations.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/message_repository.hpp"
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
  auto columns = db.prepare(
      "SELECT count(*) FROM pragma_table_info('executions') WHERE name IN "
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
    ExecutionRepository(db).insert(
        mission::test::sample_execution("e1", mission::ExecutionState::created));
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
  ExecutionRepository(db).insert(mission::test::sample_execution(
      "e1", mission::ExecutionState::running, mission::Delivery::mcp_tool));
  ExecutionRepository(db).insert(mission::test::sample_execution(
      "e2", mission::ExecutionState::running, mission::Delivery::mcp_tool));

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
    db.exec(
        "INSERT INTO missions (id, kind, name, status, cwd, execution_id, created_at, updated_at) "
        "VALUES ('wf-1', 'planned', 'w', 'in_progress', '/r', NULL, 1, 1)");
    db.exec(
        "INSERT INTO runs (id, workflow_id, status, options, repository, integration_branch, "
        "base_commit, "
        "created_at) VALUES ('run-1', 'wf-1', 'running', "
        "'{\"adapter\":\"generic\",\"env\":{\"MISSION_MCP_TOKEN\":"
        "\"secret-token\",\"OPENAI_API_KEY\":\"sk-1\"},\"parallel\":2}', '/r', 'mission/run/wf-1', "
        "'abc', 1)");
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

TEST_CASE(
    "a version 14 database gains the plan's indexes and counts the unread messages it holds") {
  TempDb temp;
  {
    Database db(temp.file());
    migrate_to(db, 14);
    ExecutionRepository(db).insert(
        mission::test::sample_execution("ae-a", mission::ExecutionState::running));
    // Unread, read, archived, expired, and one to the people's inbox.
    db.exec(
        "INSERT INTO messages (message_id, thread_id, sender_person, recipient_execution_id, "
        "message_type, body, "
        "priority, created_at, expires_at, read_at, archived_at) VALUES "
        "('ms-1', 'ms-1', 'p', 'ae-a', 'query', '\"a\"', 'normal', 1, NULL, NULL, NULL), "
        "('ms-2', 'ms-2', 'p', 'ae-a', 'query', '\"b\"', 'urgent', 1, NULL, NULL, NULL), "
        "('ms-3', 'ms-3', 'p', 'ae-a', 'query', '\"c\"', 'normal', 1, NULL, 5, NULL), "
        "('ms-4', 'ms-4', 'p', 'ae-a', 'query', '\"d\"', 'normal', 1, NULL, 5, 6), "
        "('ms-5', 'ms-5', 'p', 'ae-a', 'query', '\"e\"', 'normal', 1, 10, NULL, NULL), "
        "('ms-6', 'ms-6', 'p', NULL, 'notification', '\"f\"', 'low', 1, NULL, NULL, NULL)");
  }
  Database db(temp.file());
  migrate(db);
  CHECK(schema_version(db) == latest_schema_version());
  auto indexes = db.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
      "('tasks_planned_by_name', "
      "'tasks_planned_by_sequence', 'messages_unread', 'messages_unread_expiring')");
  REQUIRE(indexes.step());
  CHECK(indexes.integer(0) == 4);
  MessageRepository messages(db);
  // ms-5 counts until it expires at 10.
  CHECK(messages.count_unread(std::string("ae-a"), 5) ==
        std::map<std::string, std::int64_t>{{"normal", 2}, {"urgent", 1}});
  CHECK(messages.count_unread(std::string("ae-a"), 10) ==
        std::map<std::string, std::int64_t>{{"normal", 1}, {"urgent", 1}});
  CHECK(messages.count_unread(std::nullopt, 10) == std::map<std::string, std::int64_t>{{"low", 1}});
  messages.mark_read("ms-2", 20);
  CHECK(messages.count_unread(std::string("ae-a"), 20) ==
        std::map<std::string, std::int64_t>{{"normal", 1}});
}

TEST_CASE("migration 23 keeps every execution and lets one wait on a permission or be idle") {
  TempDb temp;
  {
    Database db(temp.file());
    migrate_to(db, 22);
    mission::store::ExecutionRow row =
        mission::test::sample_execution("ae-a", mission::ExecutionState::running);
    ExecutionRepository(db).insert(row);
    db.exec("UPDATE executions SET agent_name = 'worker', sandbox = 'confined' WHERE id = 'ae-a'");
    CHECK_THROWS(db.exec("UPDATE executions SET state = 'idle' WHERE id = 'ae-a'"));
  }
  Database db(temp.file());
  migrate(db);
  auto found = ExecutionRepository(db).find("ae-a");
  REQUIRE(found);
  CHECK(found->state == mission::ExecutionState::running);
  auto kept = db.prepare("SELECT agent_name, sandbox FROM executions WHERE id = 'ae-a'");
  REQUIRE(kept.step());
  CHECK(kept.text(0) == "worker");
  CHECK(kept.text(1) == "confined");
  for (auto state : {mission::ExecutionState::awaiting_permission, mission::ExecutionState::idle}) {
    found->state = state;
    ExecutionRepository(db).update(*found);
    CHECK(ExecutionRepository(db).find("ae-a")->state == state);
  }
  // Its triggers are back: an execution that ends releases its claims.
  auto triggers = db.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'executions'");
  REQUIRE(triggers.step());
  CHECK(triggers.integer(0) == 2);
}

TEST_CASE("migration 24 lets a run attempt wait at its budget and keeps the table's indexes") {
  TempDb temp;
  // Only the attempts' own table is at stake: their runs and tasks are
  // left out, so the foreign keys are off while rows are written.
  const std::string insert =
      "INSERT INTO run_attempts (run_id, task_id, attempt, status, started_at) VALUES ('run-a', "
      "'tk-a', 1, 'budget_reached', 5)";
  {
    Database db(temp.file());
    migrate_to(db, 23);
    db.exec("PRAGMA foreign_keys = OFF");
    CHECK_THROWS(db.exec(insert));
  }
  Database db(temp.file());
  migrate(db);
  db.exec("PRAGMA foreign_keys = OFF");
  db.exec(insert);
  CHECK_THROWS(db.exec("UPDATE run_attempts SET status = 'spent'"));
  auto indexes = db.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'run_attempts' AND "
      "name IN ('run_attempts_by_execution', 'run_attempts_by_task')");
  REQUIRE(indexes.step());
  CHECK(indexes.integer(0) == 2);
}
