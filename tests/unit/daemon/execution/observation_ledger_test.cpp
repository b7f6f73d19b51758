// The ObservationLedger against a real SQLite file: idempotency by eventId,
// the policy applied once, and final executions.

#include "daemon/execution/observation_ledger.hpp"

#include <catch2/catch.hpp>

#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

using namespace mission::daemon::execution;
using namespace mission::store;
using nlohmann::json;

namespace {

struct Ledger {
  mission::test::TempDir dir;
  Database db{dir.path() / "mission.db"};
  Ledger() {
    migrate(db);
    ExecutionRepository(db).insert(mission::test::sample_execution(
        "ae-1", mission::ExecutionState::running, mission::Delivery::mcp_tool));
  }
  json record(const std::string& type, std::optional<std::string> event_id, json fields = {}) {
    json signal = fields.is_null() ? json::object() : fields;
    signal["type"] = type;
    return ObservationLedger(db).record({"ae-1", "mcp-tool", std::move(event_id),
                                         mission::require_name<mission::SignalType>(type, "signal"),
                                         signal});
  }
  std::string state() {
    return std::string(mission::name_of(ExecutionRepository(db).find("ae-1")->state));
  }
};

}  // namespace

TEST_CASE("an eventId is recorded once and its duplicate has no second effect") {
  Ledger ledger;
  json first = ledger.record("blocked", "e-1", {{"reason", "no access"}});
  CHECK(first["status"] == "accepted");
  CHECK(ledger.state() == "blocked");
  ledger.record("progress", "e-2", {{"summary", "unblocked"}});
  CHECK(ledger.state() == "running");

  json again = ledger.record("blocked", "e-1", {{"reason", "no access"}});
  CHECK(again["status"] == "duplicate");
  CHECK(again["observationId"] == first["observationId"]);
  CHECK(ledger.state() == "running");
  CHECK(ObservationRepository(ledger.db).count("ae-1") == 2);
}

TEST_CASE("signals without an eventId get a generated one and are never duplicates") {
  Ledger ledger;
  json a = ledger.record("message", std::nullopt, {{"text", "hi"}});
  json b = ledger.record("message", std::nullopt, {{"text", "hi"}});
  CHECK(a["status"] == "recorded-only");
  CHECK(a["eventId"] != b["eventId"]);
  CHECK(a["eventId"].get<std::string>().rfind("ev-", 0) == 0);
}

TEST_CASE("claims are recorded but never finish an execution") {
  Ledger ledger;
  CHECK(ledger.record("completed_claim", "c", {{"summary", "done"}})["status"] == "recorded-only");
  CHECK(ledger.record("failed_claim", "f", {{"reason", "no"}})["status"] == "recorded-only");
  CHECK(ledger.state() == "running");
}

TEST_CASE("a final execution takes only messages, and unknown executions are not_found") {
  Ledger ledger;
  auto row = *ExecutionRepository(ledger.db).find("ae-1");
  row.state = mission::ExecutionState::cancelled;
  ExecutionRepository(ledger.db).update(row);
  try {
    ledger.record("progress", "late", {{"summary", "more"}});
    FAIL("expected execution_final");
  } catch (const mission::MissionError& e) {
    CHECK(e.code() == mission::ErrorCode::execution_final);
  }
  CHECK(ledger.record("message", "note", {{"text", "after the end"}})["status"] == "recorded-only");
  // A duplicate is answered even now: it changes nothing.
  CHECK(ledger.record("message", "note", {{"text", "after the end"}})["status"] == "duplicate");
  CHECK(ObservationRepository(ledger.db).find("ae-1", "late") == std::nullopt);

  try {
    ObservationLedger(ledger.db).record({"ae-none",
                                         "mcp-tool",
                                         "x",
                                         mission::SignalType::progress,
                                         {{"type", "progress"}, {"summary", "s"}}});
    FAIL("expected not_found");
  } catch (const mission::MissionError& e) {
    CHECK(e.code() == mission::ErrorCode::not_found);
  }
}

TEST_CASE("an eventId is one signal whatever delivered it") {
  Ledger ledger;
  json by_marker =
      ObservationLedger(ledger.db).record({"ae-1",
                                           "stdout-marker",
                                           "shared",
                                           mission::SignalType::progress,
                                           {{"type", "progress"}, {"summary", "from a marker"}}});
  json by_tool =
      ObservationLedger(ledger.db).record({"ae-1",
                                           "mcp-tool",
                                           "shared",
                                           mission::SignalType::progress,
                                           {{"type", "progress"}, {"summary", "from a tool"}}});
  CHECK(by_marker["status"] == "accepted");
  CHECK(by_tool["status"] == "duplicate");
  CHECK(ObservationRepository(ledger.db).find("ae-1", "shared")->origin == "stdout-marker");
}
