// Claims as leases on a real SQLite file (docs/adr/0019): one holder per
// task, the claim ends with its execution whatever ends it (the trigger),
// an agent mission did not launch loses it after the lease of silence
// (driven by the clock seam, no sleeps), and capabilities narrow what an
// agent is offered.

#include <catch2/catch.hpp>

#include "daemon/coordination/coordination.hpp"
#include "daemon/events/event_bus.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

using namespace mission;
using namespace mission::daemon;
using nlohmann::json;

namespace {

constexpr std::int64_t kStart = 1'800'000'000'000;

struct Fixture {
  test::TempDir dir;
  store::Database db{dir.path() / "mission.db"};
  events::EventBus bus;

  Fixture() {
    store::migrate(db);
    db.exec(
        "INSERT INTO missions (id, kind, cwd, name, status, created_at, updated_at) "
        "VALUES ('wf-1', 'planned', '/', 'wf', 'ready', 1, 1)");
  }
  void add_execution(const std::string& id, ExecutionKind kind = ExecutionKind::launched) {
    store::ExecutionRow row =
        test::sample_execution(id, ExecutionState::running, Delivery::mcp_tool);
    row.kind = kind;
    store::ExecutionRepository(db).insert(row);
  }
  void add_task(const std::string& id, int order, const std::string& context = "{}") {
    auto s = db.prepare(
        "INSERT INTO tasks (id, mission_id, name, goal, areas, status, plan_order, sequence, "
        "task_context, "
        "created_at) VALUES (?1, 'wf-1', ?1, 'goal', '[]', 'pending', ?2, 1, ?3, 1)");
    s.bind(1, id).bind(2, order).bind(3, context);
    s.run();
  }
  json claim(const std::string& who, const std::string& task) {
    events::EventBatch batch(bus);
    coordination::Caller caller{db, who, batch};
    coordination::TaskClaimRequest request;
    request.task_id = task;
    return coordination::task_claim(caller, request);
  }
  json available(const std::string& who) {
    coordination::TaskAvailableRequest request;
    return coordination::task_get_available(db, nullptr, who, request);
  }
  std::string status(const std::string& task) {
    auto s =
        db.prepare("SELECT status || '/' || coalesce(claimed_by, '-') FROM tasks WHERE id = ?1");
    s.bind(1, task);
    s.step();
    return s.text(0);
  }
  // The newest recovery checkpoint's detail reason, or "".
  std::string recovery_reason(const std::string& task) {
    auto s = db.prepare(
        "SELECT json_extract(detail, '$.reason') FROM checkpoints WHERE task_id = ?1 AND type = "
        "'recovery' "
        "ORDER BY seq DESC LIMIT 1");
    s.bind(1, task);
    return s.step() ? s.text(0) : "";
  }
  void end(const std::string& id, ExecutionState state) {
    auto row = store::ExecutionRepository(db).find(id);
    row->state = state;
    store::ExecutionRepository(db).update(*row);
  }
};

ErrorCode code_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const MissionError& e) {
    return e.code();
  }
  FAIL("no MissionError");
  return ErrorCode::internal;
}

}  // namespace

TEST_CASE(
    "a task has one holder: a second claim is already_claimed and the task is no longer offered") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_execution("ae-b");
  f.add_task("t1", 0);
  f.add_task("t2", 1);
  CHECK(f.claim("ae-a", "t1")["success"] == true);
  CHECK(f.claim("ae-a", "t1")["already_yours"] == true);
  CHECK(code_of([&] { f.claim("ae-b", "t1"); }) == ErrorCode::already_claimed);
  json offered = f.available("ae-b")["tasks"];
  REQUIRE(offered.size() == 1);
  CHECK(offered[0]["id"] == "t2");
  // The claimer owns the task now.
  auto s = f.db.prepare("SELECT execution_id FROM tasks WHERE id = 't1'");
  s.step();
  CHECK(s.text(0) == "ae-a");
  CHECK(f.status("t1") == "pending/ae-a");
}

TEST_CASE(
    "a claim ends with its execution, however it ends, and the task is ready again with a recovery "
    "checkpoint") {
  for (ExecutionState ending : {ExecutionState::completed, ExecutionState::failed,
                                ExecutionState::cancelled, ExecutionState::lost}) {
    Fixture f;
    f.add_execution("ae-a");
    f.add_task("t1", 0);
    f.claim("ae-a", "t1");
    f.db.exec("UPDATE tasks SET status = 'in_progress', started_at = 5 WHERE id = 't1'");
    f.end("ae-a", ending);
    INFO(name_of(ending));
    CHECK(f.status("t1") == "pending/-");
    CHECK(f.recovery_reason("t1") == "execution_" + std::string(name_of(ending)));
    CHECK(f.available("ae-x")["tasks"].size() == 1);
  }
}

TEST_CASE("a daemon that finds a launched execution gone releases its claims at start-up") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_task("t1", 0);
  f.claim("ae-a", "t1");
  const ExecutionState active[] = {ExecutionState::running};
  CHECK(store::ExecutionRepository(f.db).mark_launched_lost(active, 10) == 1);
  CHECK(f.status("t1") == "pending/-");
  CHECK(f.recovery_reason("t1") == "execution_lost");
}

TEST_CASE(
    "an agent mission did not launch loses its claim after the lease of silence, not before") {
  ManualClock clock(kStart);
  Fixture f;
  f.add_execution("ae-ext", ExecutionKind::external);
  f.add_execution("ae-run");
  f.add_task("t1", 0);
  f.add_task("t2", 1);
  f.claim("ae-ext", "t1");
  f.claim("ae-run", "t2");
  events::EventBatch batch(f.bus);
  clock.advance(limits::kClaimLeaseMs - 1000);
  // A heartbeat moves the lease on.
  {
    coordination::Caller caller{f.db, "ae-ext", batch};
    coordination::agent_heartbeat(caller, {});
  }
  clock.advance(limits::kClaimLeaseMs - 1000);
  CHECK(coordination::expire_claims(f.db, batch, unix_ms_now()) == 0);
  CHECK(f.status("t1") == "pending/ae-ext");
  clock.advance(2000);
  CHECK(coordination::expire_claims(f.db, batch, unix_ms_now()) == 1);
  CHECK(f.status("t1") == "pending/-");
  CHECK(f.recovery_reason("t1") == "lease_expired");
  // A launched agent is alive while its process is: no lease to run out.
  CHECK(f.status("t2") == "pending/ae-run");
}

TEST_CASE(
    "an agent is offered and may claim only the tasks whose required capabilities it registered") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_task("gpu", 0, R"({"required_capabilities": ["cuda"]})");
  f.add_task("any", 1);
  json offered = f.available("ae-a")["tasks"];
  REQUIRE(offered.size() == 1);
  CHECK(offered[0]["id"] == "any");
  CHECK(code_of([&] { f.claim("ae-a", "gpu"); }) == ErrorCode::invalid_argument);
  events::EventBatch batch(f.bus);
  coordination::Caller caller{f.db, "ae-a", batch};
  coordination::AgentRegisterRequest registration;
  registration.name = "gpu-box";
  registration.runtime = "custom";
  registration.capabilities = {"cuda", "cpp"};
  coordination::agent_register(caller, registration);
  CHECK(f.available("ae-a")["tasks"].size() == 2);
  CHECK(f.claim("ae-a", "gpu")["success"] == true);
}

TEST_CASE(
    "releasing gives the task back with the agent's reason, and only the holder may release") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_execution("ae-b");
  f.add_task("t1", 0);
  f.claim("ae-a", "t1");
  events::EventBatch batch(f.bus);
  coordination::TaskReleaseRequest release;
  release.task_id = "t1";
  release.reason = "out of my depth";
  coordination::Caller other{f.db, "ae-b", batch};
  CHECK(code_of([&] { coordination::task_release(other, release); }) == ErrorCode::forbidden);
  coordination::Caller holder{f.db, "ae-a", batch};
  CHECK(coordination::task_release(holder, release)["status"] == "ready");
  CHECK(f.status("t1") == "pending/-");
  CHECK(f.recovery_reason("t1") == "released");
  CHECK(f.claim("ae-b", "t1")["success"] == true);
}
