// The store's repositories on each engine (docs/adr/0052): ctest runs every
// case here twice, on a SQLite file (label engine:sqlite) and on a fresh
// database of a real PostgreSQL 15 (label engine:postgresql), so one SQL
// text is held to both. The ledger's rule and single-statement claims are
// checked with two connections, as two daemons would hold them.

#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "daemon/store/claim_repository.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/idempotency_repository.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "daemon/store/message_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "shared/error_code.hpp"
#include "support/engine_store.hpp"
#include "support/test_scale.hpp"

using namespace mission;
using namespace mission::store;

namespace {

ObservationRow signal(const std::string& execution, const std::string& event) {
  ObservationRow row;
  row.execution_id = execution;
  row.event_id = event;
  row.origin = "mcp-tool";
  row.kind = "progress";
  row.payload = "{}";
  row.created_at = 5;
  return row;
}

}  // namespace

TEST_CASE("a fresh store reaches the latest schema version", "[store]") {
  test::EngineStore store;
  CHECK(schema_version(store.db) == latest_schema_version());
  migrate(store.db);  // again: nothing to do
  CHECK(schema_version(store.db) == latest_schema_version());
}

TEST_CASE("a statement binds and reads back every type, a NULL and raw bytes", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  std::string bytes("\0\x01\xff'?1", 6);
  store.db.prepare("UPDATE executions SET token_sha256 = ?1, pid = ?2 WHERE id = ?3")
      .bind_blob(1, bytes.data(), bytes.size())
      .bind(2, std::int64_t{1} << 40)
      .bind(3, std::string("ex-1"))
      .run();
  CHECK(store.db.changes() == 1);
  // A '?1' inside a literal is text, not a parameter.
  auto s = store.db.prepare(
      "SELECT token_sha256, pid, exit_code, '?1' FROM executions WHERE (?1 IS NULL OR id = ?1)");
  s.bind_null(1);
  REQUIRE(s.step());
  CHECK(s.blob(0) == bytes);
  CHECK(s.integer(1) == (std::int64_t{1} << 40));
  CHECK(s.is_null(2));
  CHECK(s.optional_integer(2) == std::nullopt);
  CHECK(s.text(3) == "?1");
  CHECK_FALSE(s.step());
}

TEST_CASE("a nested transaction rolls back alone and the outer one commits", "[store]") {
  test::EngineStore store;
  {
    Transaction outer(store.db);
    store.add_execution("ex-kept");
    {
      Transaction inner(store.db);
      store.add_execution("ex-dropped");
    }  // not committed: back to the savepoint
    outer.commit();
  }
  CHECK(ExecutionRepository(store.db).find("ex-kept"));
  CHECK_FALSE(ExecutionRepository(store.db).find("ex-dropped"));
  CHECK_FALSE(store.db.in_transaction());
}

TEST_CASE("a failed statement inside a savepoint leaves the outer transaction usable", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  Transaction outer(store.db);
  {
    Transaction inner(store.db);
    CHECK_THROWS_AS(store.add_execution("ex-1"), MissionError);  // duplicate key
  }
  store.add_execution("ex-2");
  outer.commit();
  CHECK(ExecutionRepository(store.db).find("ex-2"));
}

TEST_CASE("executions page, count and end with their claims released", "[store]") {
  test::EngineStore store;
  ExecutionRepository executions(store.db);
  for (int i = 1; i <= 5; ++i) store.add_execution("ex-" + std::to_string(i));
  auto first = executions.page(std::nullopt, PageRequest{std::nullopt, std::nullopt, 2});
  REQUIRE(first.rows.size() == 2);
  CHECK(first.more);
  auto next = executions.page(std::nullopt, PageRequest{first.positions.back(), std::nullopt, 10});
  CHECK(next.rows.size() == 3);
  CHECK(executions.latest_id() == "ex-5");
  CHECK(executions.ids_with_prefix("ex-", 10).size() == 5);
  std::vector<ExecutionState> live{ExecutionState::running};
  CHECK(executions.count(live).in_states == 5);

  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  REQUIRE(ClaimRepository(store.db).try_claim("t-1", "ex-1", 10));
  auto row = *executions.find("ex-1");
  row.state = ExecutionState::failed;
  row.updated_at = 11;
  executions.update(row);  // the trigger ends the claim and journals why
  CHECK(store.text("SELECT status || '/' || coalesce(claimed_by, '-') FROM tasks") == "pending/-");
  CHECK(store.text("SELECT json_extract(detail, '$.reason') FROM checkpoints") ==
        "execution_failed");
  executions.remove("ex-5");
  CHECK_FALSE(executions.find("ex-5"));
}

TEST_CASE("the ledger keeps one row per execution and event, visible only once committed",
          "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  Database other(store.where);  // a second connection: another daemon's view
  ObservationRepository ledger(store.db);
  {
    Transaction transaction(store.db);
    auto id = ledger.insert_unique(signal("ex-1", "ev-1"));
    REQUIRE(id);
    CHECK_FALSE(ledger.insert_unique(signal("ex-1", "ev-1")));  // the duplicate: no row
    // Not acknowledged before the commit: the other connection sees none.
    CHECK_FALSE(ObservationRepository(other).find("ex-1", "ev-1"));
    transaction.commit();
  }
  CHECK(ObservationRepository(other).find("ex-1", "ev-1"));
  CHECK_FALSE(ObservationRepository(other).insert_unique(signal("ex-1", "ev-1")));
  CHECK(ObservationRepository(other).insert_unique(signal("ex-1", "ev-2")));
  CHECK(ledger.page("ex-1", PageRequest{}).rows.size() == 2);
}

TEST_CASE("two connections racing for the same tasks: each task has exactly one winner",
          "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_execution("ex-a");
  store.add_execution("ex-b");
  const int tasks = test::scaled_count(40, 10);
  for (int i = 0; i < tasks; ++i) store.add_task("t-" + std::to_string(i), "wf-1", i);
  std::atomic<int> wins_a{0};
  std::atomic<int> wins_b{0};
  auto racer = [&](const std::string& who, std::atomic<int>& wins) {
    Database db(store.where);
    ClaimRepository claims(db);
    for (int i = 0; i < tasks; ++i) {
      if (claims.try_claim("t-" + std::to_string(i), who, 20)) ++wins;
    }
  };
  std::thread a(racer, "ex-a", std::ref(wins_a));
  std::thread b(racer, "ex-b", std::ref(wins_b));
  a.join();
  b.join();
  CHECK(wins_a + wins_b == tasks);
  CHECK(store.text("SELECT count(*) FROM tasks WHERE claimed_by IS NULL") == "0");
  CHECK(ClaimRepository(store.db).claims_of("ex-a").size() == static_cast<std::size_t>(wins_a));
}

TEST_CASE("unclaimed tasks honour required capabilities and a release frees a task", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_execution("ex-1");
  store.add_task("t-plain", "wf-1", 0);
  store.add_task("t-gpu", "wf-1", 1, R"({"required_capabilities":["gpu"]})");
  ClaimRepository claims(store.db);
  auto plain = claims.unclaimed(std::nullopt, "[]", 0, 10);
  REQUIRE(plain.size() == 1);
  CHECK(plain[0].id == "t-plain");
  auto gpu = claims.unclaimed(std::string("wf-1"), R"(["gpu"])", 0, 10);
  CHECK(gpu.size() == 2);
  REQUIRE(claims.try_claim("t-gpu", "ex-1", 30));
  CHECK(claims.claim_of("t-gpu")->execution_id == "ex-1");
  CHECK(claims.expired(1'000'000, 10).empty());  // a launched agent's claim has no lease
  CHECK(claims.release("t-gpu", "ex-1", "released", "given back", 31));
  CHECK_FALSE(claims.claim_of("t-gpu"));
}

TEST_CASE("messages page, count unread through the triggers and are read and archived", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  MessageRepository messages(store.db);
  for (int i = 1; i <= 3; ++i) {
    MessageRow row;
    row.id = "ms-" + std::to_string(i);
    row.thread_id = "th-1";
    row.sender_person = "ann";
    row.recipient_execution_id = "ex-1";
    row.body = "\"hello\"";
    row.created_at = i;
    CHECK(messages.insert(row) > 0);
  }
  CHECK(messages.unread("ex-1", 10, 10).size() == 3);
  messages.mark_read("ms-1", 20);
  messages.archive("ms-2", 21);
  CHECK(messages.unread("ex-1", 30, 10).size() == 1);
  CHECK(store.text("SELECT unread FROM message_unread_counts WHERE recipient = 'ex-1'") == "1");
  MessageFilter filter;
  filter.recipient = "ex-1";
  filter.now = 30;
  CHECK(messages.page(filter, PageRequest{}).rows.size() >= 1);
  CHECK(messages.newest_position("ex-1") > 0);
  CHECK(messages.find("ms-3")->body == "\"hello\"");
}

TEST_CASE("missions, phases and their counts", "[store]") {
  test::EngineStore store;
  MissionRepository missions(store.db);
  MissionRow row;
  row.id = "mi-1";
  row.cwd = "/work";
  row.name = "m";
  row.created_at = row.updated_at = 1;
  missions.insert(row);
  PhaseRow phase;
  phase.id = "ph-1";
  phase.mission_id = "mi-1";
  phase.number = 1;
  phase.created_at = 2;
  missions.insert_phase(phase);
  missions.end_open_phases("mi-1", PhaseStatus::completed, 3);
  CHECK(missions.find_phase("mi-1", 1)->completed_at == 3);
  missions.set_current_phase("mi-1", 2, 4);
  CHECK(missions.find("mi-1")->current_phase == 2);
  CHECK(missions.page(std::string("/work"), PageRequest{}).rows.size() == 1);
  store.add_task("t-1", "mi-1", 0);
  std::vector<std::string> ids{"mi-1"};
  auto counts = missions.counts(ids);
  CHECK(counts["mi-1"].tasks == 1);
  CHECK(counts["mi-1"].pending == 1);
  CHECK(counts["mi-1"].in_progress == 0);
  CHECK(missions.ids(std::nullopt) == ids);
}

TEST_CASE("runs and their attempts", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  store.add_run("run-1", "wf-1");
  RunRepository runs(store.db);
  AttemptRow attempt = store.attempt_of("run-1", "t-1");
  attempt.started_at = 2;
  runs.insert_attempt(attempt);
  attempt.attempt = 2;
  runs.insert_attempt(attempt);
  attempt.gate_passed = false;
  attempt.gate_output = "no";
  runs.update_attempt(attempt);
  CHECK(runs.live_of("wf-1")->id == "run-1");
  CHECK(runs.attempts("run-1").size() == 2);
  auto latest = runs.latest_attempts("run-1");
  REQUIRE(latest.size() == 1);
  CHECK(latest[0].attempt == 2);
  CHECK(latest[0].gate_passed == false);
  runs.set_status("run-1", RunStatus::completed, std::nullopt, 5);
  CHECK_FALSE(runs.live_of("wf-1"));
  CHECK(runs.ended_ids() == std::vector<std::string>{"run-1"});
}

TEST_CASE("request ids are recorded, replaced, found and pruned", "[store]") {
  test::EngineStore store;
  IdempotencyRepository records(store.db);
  IdempotencyRow row;
  row.execution_id = "ex-1";
  row.request_id = "rq-1";
  row.tool = "signal";
  row.payload_sha256 = std::string(32, '\x7f');
  row.created_at = 1;
  row.expires_at = 100;
  records.put(row);
  row.completed = true;
  row.result = "{}";
  records.put(row);  // the call finished: the same record, now completed
  auto found = records.find("ex-1", "rq-1");
  REQUIRE(found);
  CHECK(found->completed);
  CHECK(found->payload_sha256 == row.payload_sha256);
  CHECK(records.prune(1000) == 1);
  CHECK_FALSE(records.find("ex-1", "rq-1"));
}

TEST_CASE("MCP sessions are numbered, counted and detached", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  McpSessionRepository sessions(store.db);
  auto first = sessions.insert("ex-1", 1);
  auto second = sessions.insert("ex-1", 2);
  CHECK(second > first);
  sessions.count_call(first);
  sessions.detach(first, 3);
  auto listed = sessions.list_for_execution("ex-1");
  REQUIRE(listed.size() == 2);
}

TEST_CASE("an error names what failed, and on PostgreSQL its SQLSTATE", "[store]") {
  test::EngineStore store;
  try {
    store.db.exec("SELECT * FROM no_such_table");
    FAIL("no error");
  } catch (const MissionError& e) {
    std::string message = e.what();
    CHECK(message.find("no_such_table") != std::string::npos);
    if (test::on_postgresql()) CHECK(message.find("SQLSTATE 42P01") != std::string::npos);
  }
}
