// Fault injection through the test-only fault points (shared/fault_points.hpp,
// armed by MISSIOND_TEST_FAULTS): database writes that fail as a failing or
// full disk's would, execution logs that cannot be written, and requests
// that fail to allocate. Each time the daemon answers with an error that
// names the fault and what to do, records nothing of the failed call,
// loses nothing acknowledged, keeps serving, and works again once the
// fault is gone.

#include <signal.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A session of an execution with the signals and tracking tools, spoken
// directly on the socket.
struct Session {
  explicit Session(const Instance& instance, const std::string& execution_id,
                   const std::string& token, const fs::path& cwd)
      : client(instance.socket()) {
    REQUIRE(open_session(client, execution_id, token, cwd));
  }

  // The reply to one tool call: its result, or its error payload.
  json call(const std::string& tool, const json& arguments) {
    json request = {{"jsonrpc", "2.0"},
                    {"id", next_id++},
                    {"method", "tools/call"},
                    {"params", {{"name", tool}, {"arguments", arguments}}}};
    client.send(request.dump() + "\n");
    std::optional<json> reply = client.read(20s);
    REQUIRE(reply);
    return *reply;
  }

  RawClient client;
  int next_id = 10;
};

bool failed(const json& reply) {
  return reply.contains("error") ||
         (reply.contains("result") && reply["result"].value("isError", false));
}

// The error's text, message and hint, wherever the reply carries it.
std::string error_text(const json& reply) {
  if (reply.contains("error")) return reply["error"].dump();
  return reply["result"].dump();
}

struct Setup {
  Instance instance;
  fs::path cwd = instance.root.path() / "work";
  std::string execution_id;
  std::string token;
  std::string mission_id;
  std::string task_id;

  Setup() {
    fs::create_directories(cwd / "src");
    std::ofstream(cwd / "src" / "main.c") << "int main(void) { return 0; }\n";
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    json created = mission_json(instance, {"exec", "create", "--cwd", cwd.string(), "--toolsets",
                                           "signals,tracking", "--print-token"});
    execution_id = created["execution"]["id"];
    token = created["token"];
    Session session(instance, execution_id, token, cwd);
    mission_id = session.call(
        "start_mission",
        {{"name", "m"}, {"objective", "o"}})["result"]["structuredContent"]["mission_id"];
    task_id = session.call("start_task", {{"mission_id", mission_id},
                                          {"name", "t"},
                                          {"goal", "g"}})["result"]["structuredContent"]["task_id"];
  }
};

std::int64_t count(mission::store::Database& db, const std::string& sql, const std::string& value) {
  auto statement = db.prepare(sql);
  statement.bind(1, value);
  REQUIRE(statement.step());
  return statement.integer(0);
}

// Sends `calls` signals (eventId KEY-n) and decisions (question KEY-n)
// through a daemon armed with `spec`; returns the keys acknowledged and
// failed, and checks each failure's text holds `expected`.
struct Outcome {
  std::set<std::string> acknowledged;
  std::set<std::string> failed;
  bool alive_after = false;
};

Outcome run_with_faults(Setup& setup, const std::string& spec, int calls,
                        const std::string& expected) {
  Outcome outcome;
  std::optional<DaemonProcess> daemon;
  {
    ArmedFaults armed(spec);
    daemon.emplace(setup.instance);
  }
  REQUIRE(daemon->ready());
  Session session(setup.instance, setup.execution_id, setup.token, setup.cwd);
  for (int n = 0; n < calls; ++n) {
    const std::string key = "k-" + std::to_string(n);
    json reply = n % 2 == 0 ? session.call("progress", {{"summary", key}, {"eventId", key}})
                            : session.call("log_decision", {{"task_id", setup.task_id},
                                                            {"category", "other"},
                                                            {"question", key},
                                                            {"chosen", "c"},
                                                            {"reasoning", "r"},
                                                            {"request_id", key}});
    if (failed(reply)) {
      INFO(reply.dump());
      CHECK(error_text(reply).find(expected) != std::string::npos);
      outcome.failed.insert(key);
    } else {
      outcome.acknowledged.insert(key);
    }
  }
  // Still serving: the CLI gets its status.
  outcome.alive_after = run_mission(setup.instance, {"status"}).exit_code == 0;
  CHECK(daemon->wait_exit(0ms) == std::nullopt);  // never crashed
  return outcome;
}

void check_recorded(const Setup& setup, const Outcome& outcome) {
  mission::store::Database db(setup.instance.state_dir() / "mission.db");
  auto integrity = db.prepare("PRAGMA integrity_check");
  REQUIRE(integrity.step());
  CHECK(integrity.text(0) == "ok");
  for (const std::string& key : outcome.acknowledged) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM observations WHERE event_id = ?1", key) +
              count(db, "SELECT COUNT(*) FROM decisions WHERE question = ?1", key) ==
          1);
  }
  for (const std::string& key : outcome.failed) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM observations WHERE event_id = ?1", key) +
              count(db, "SELECT COUNT(*) FROM decisions WHERE question = ?1", key) ==
          0);
  }
}

}  // namespace

TEST_CASE(
    "database writes failing with EIO are answered clearly and the daemon recovers when they "
    "stop") {
  Setup setup;
  // Writes 40 to 80 fail: a span of calls in the middle of the run.
  Outcome outcome = run_with_faults(setup, "db_write:fail@40-80", 60, "I/O error");
  CHECK(outcome.failed.size() > 0);
  CHECK(outcome.acknowledged.size() > 0);
  // The last calls came after the fault went.
  CHECK(outcome.acknowledged.count("k-59") == 1);
  CHECK(outcome.alive_after);
  check_recorded(setup, outcome);
}

TEST_CASE("a full disk is answered as a full disk and the daemon recovers when space returns") {
  Setup setup;
  Outcome outcome = run_with_faults(setup, "db_write:full@40-80", 60, "is full");
  CHECK(outcome.failed.size() > 0);
  CHECK(outcome.acknowledged.count("k-59") == 1);
  CHECK(outcome.alive_after);
  check_recorded(setup, outcome);
}

TEST_CASE(
    "a request that cannot allocate is answered out of memory and nothing of it is recorded") {
  Setup setup;
  // Requests are counted from the session's first (mcp.attach).
  Outcome outcome = run_with_faults(setup, "request:oom@10-14", 30, "ran out of memory");
  CHECK(outcome.failed.size() == 5);
  CHECK(outcome.acknowledged.size() == 25);
  CHECK(outcome.alive_after);
  check_recorded(setup, outcome);
}

TEST_CASE(
    "an execution log that cannot be written is reported and the run goes on and the next log "
    "works") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  {
    ArmedFaults armed("log_write:fail@1");
    daemon.emplace(instance);
  }
  REQUIRE(daemon->ready());
  // The first run's log fails at its first write; the run still ends well.
  ProcessResult first =
      run_mission(instance, {"run", "--no-tty", "--", "sh", "-c", "echo first; echo again"});
  CHECK(first.exit_code == 0);
  // The fault is gone: the next execution's log holds its output.
  ProcessResult second =
      run_mission(instance, {"run", "--detach", "--", "sh", "-c", "echo second"});
  REQUIRE(second.exit_code == 0);
  std::string id = second.out.substr(0, second.out.find_first_of(" \n"));
  std::string logs;
  CHECK(eventually(
      [&] {
        logs = run_mission(instance, {"exec", "logs", id}).out;
        return logs.find("second") != std::string::npos;
      },
      10s, 50ms));
  // The daemon said what failed and what it did about it.
  daemon->signal(SIGTERM);
  CHECK(daemon->wait_exit() == 0);
  std::string log = daemon->stderr_text();
  CHECK(log.find("Input/output error; further output is dropped") != std::string::npos);
}

TEST_CASE(
    "the fault points stay test-only: agents never inherit them and an autostarted daemon never "
    "arms them") {
  Instance instance;
  {
    std::optional<DaemonProcess> daemon;
    {
      // Armed, but for a hit that never comes.
      ArmedFaults armed("snapshot_walk:oom@1000000");
      daemon.emplace(instance);
    }
    REQUIRE(daemon->ready());
    ProcessResult run = run_mission(instance, {"run", "--no-tty", "--", "sh", "-c",
                                               "echo \"faults=${MISSIOND_TEST_FAULTS:-unset}\""});
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("faults=unset") != std::string::npos);
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit() == 0);
    CHECK(daemon->stderr_text().find("test-only fault points armed") != std::string::npos);
  }
  // Whatever runs mission with the variable set (an agent, say), the daemon
  // it starts on demand ignores it: armed, every request would fail here.
  ArmedFaults armed("request:oom@1-");
  ProcessResult status = run_mission(instance, {"status"});
  INFO(status.err);
  CHECK(status.exit_code == 0);
  CHECK(run_mission(instance, {"daemon", "stop"}).exit_code == 0);
  CHECK(read_file(instance.log()).find("fault points armed") == std::string::npos);
}
