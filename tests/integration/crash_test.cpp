// Crash consistency: missiond is killed with SIGKILL at random moments
// while a client sends signals and tracking calls; after every restart each
// call the client saw acknowledged is in the database exactly once.

#include <signal.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// An MCP session spoken directly on the socket (no bridge): hello,
// mcp.attach, initialize.
bool open_session(RawClient& client, const std::string& execution_id, const std::string& token,
                  const fs::path& cwd) {
  if (!client.connected()) return false;
  client.hello();
  json attached = client.call("mcp.attach", {{"agentExecutionId", execution_id}, {"token", token}, {"cwd", cwd.string()}});
  if (!attached.contains("result")) return false;
  client.send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                   {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                               {"clientInfo", {{"name", "crash-test"}, {"version", "1"}}}}}}.dump() + "\n");
  std::optional<json> initialized = client.read();
  if (!initialized || !initialized->contains("result")) return false;
  client.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n");
  return true;
}

std::int64_t count(mission::store::Database& db, const std::string& sql, const std::string& value) {
  auto statement = db.prepare(sql);
  statement.bind(1, value);
  REQUIRE(statement.step());
  return statement.integer(0);
}

}  // namespace

TEST_CASE("after SIGKILL at random moments every acknowledged call is there exactly once") {
  Instance instance;
  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  std::string execution_id;
  std::string token;
  std::string task_id;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    json created = mission_json(instance, {"exec", "create", "--cwd", cwd.string(), "--toolsets",
                                           "signals,tracking", "--print-token"});
    execution_id = created["execution"]["id"];
    token = created["token"];
    RawClient client(instance.socket());
    REQUIRE(open_session(client, execution_id, token, cwd));
    client.send(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                     {"params", {{"name", "start_mission"}, {"arguments", {{"name", "m"}, {"objective", "o"}}}}}}
                    .dump() + "\n");
    std::string mission_id = (*client.read())["result"]["structuredContent"]["mission_id"];
    client.send(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
                     {"params", {{"name", "start_task"}, {"arguments", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}}}}}}
                    .dump() + "\n");
    task_id = (*client.read())["result"]["structuredContent"]["task_id"];
  }

  std::set<std::string> acked_signals;
  std::set<std::string> acked_decisions;
  std::mt19937 random(std::random_device{}());
  constexpr int kRounds = 6;
  int kills = 0;
  for (int round = 0; round < kRounds; ++round) {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    RawClient client(instance.socket());
    REQUIRE(open_session(client, execution_id, token, cwd));
    // The kill comes at a random moment while calls are in flight.
    const int delay_ms = std::uniform_int_distribution<int>(30, 250)(random);
    std::thread killer([pid = daemon.pid(), delay_ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      ::kill(pid, SIGKILL);
    });
    for (int n = 0;; ++n) {
      const bool decision = n % 3 == 2;
      const std::string key = "r" + std::to_string(round) + "-" + std::to_string(n);
      json arguments = decision ? json{{"task_id", task_id}, {"category", "other"}, {"question", key},
                                       {"chosen", "c"}, {"reasoning", "r"}, {"request_id", key}}
                                : json{{"summary", "step " + key}, {"eventId", key}};
      json request = {{"jsonrpc", "2.0"}, {"id", 100 + n}, {"method", "tools/call"},
                      {"params", {{"name", decision ? "log_decision" : "progress"}, {"arguments", arguments}}}};
      if (!client.try_send(request.dump() + "\n")) break;
      std::optional<json> reply = client.read(10s);
      if (!reply) break;  // the daemon died before answering: not acknowledged
      INFO(reply->dump());
      REQUIRE(reply->contains("result"));
      REQUIRE((*reply)["result"]["isError"] == false);
      (decision ? acked_decisions : acked_signals).insert(key);
    }
    killer.join();
    CHECK(daemon.wait_exit() == 128 + SIGKILL);
    ++kills;
  }

  // A last start: recovery runs, and the daemon serves again.
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  CHECK(run_mission(instance, {"status"}).exit_code == 0);
  mission::store::Database db(instance.state_dir() / "mission.db");
  CHECK(kills == kRounds);
  CHECK(acked_signals.size() > 0);
  for (const std::string& key : acked_signals) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM observations WHERE event_id = ?1", key) == 1);
  }
  for (const std::string& key : acked_decisions) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM decisions WHERE question = ?1", key) == 1);
  }
  // Nothing is recorded twice, acknowledged or not.
  auto duplicates = db.prepare("SELECT COUNT(*) FROM (SELECT question FROM decisions GROUP BY question HAVING COUNT(*) > 1)");
  REQUIRE(duplicates.step());
  CHECK(duplicates.integer(0) == 0);
}
