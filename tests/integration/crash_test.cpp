// Crash consistency: missiond is killed with SIGKILL at random moments,
// and at chosen points (the test-only fault points of
// shared/fault_points.hpp), while a client sends signals and tracking
// calls; after every restart each call the client saw acknowledged is in
// the database exactly once and the database is consistent.

#include <signal.h>
#include <stdlib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
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

std::int64_t count(mission::store::Database& db, const std::string& sql, const std::string& value) {
  auto statement = db.prepare(sql);
  statement.bind(1, value);
  REQUIRE(statement.step());
  return statement.integer(0);
}

// What the client saw acknowledged, by kind; each key is in exactly one
// record when acknowledged.
struct Acknowledged {
  std::set<std::string> signals;    // observations.event_id
  std::set<std::string> decisions;  // decisions.question
  std::set<std::string> tasks;      // tasks.name, started
  std::set<std::string> completed;  // tasks.name, completed
};

// One MCP call; nullopt once the daemon is gone (not acknowledged).
std::optional<json> call_tool(RawClient& client, int id, const std::string& tool,
                              const json& arguments) {
  json request = {{"jsonrpc", "2.0"},
                  {"id", id},
                  {"method", "tools/call"},
                  {"params", {{"name", tool}, {"arguments", arguments}}}};
  if (!client.try_send(request.dump() + "\n")) return std::nullopt;
  std::optional<json> reply = client.read(20s);
  if (!reply) return std::nullopt;
  INFO(reply->dump());
  REQUIRE(reply->contains("result"));
  REQUIRE((*reply)["result"]["isError"] == false);
  return (*reply)["result"]["structuredContent"];
}

// Sends signals, decisions and tasks (each started, then completed, which
// snapshots the tree twice) until the daemon dies; at most `max_calls`.
// Returns how many calls were acknowledged.
int load_until_killed(RawClient& client, const std::string& round, const std::string& mission_id,
                      const std::string& task_id, Acknowledged& acked, int max_calls) {
  int acknowledged = 0;
  for (int n = 0; n < max_calls; ++n) {
    const std::string key = round + "-" + std::to_string(n);
    const int id = 100 + n;
    std::optional<json> result;
    switch (n % 4) {
      case 0:
      case 1:
        result = call_tool(client, id, "progress", {{"summary", "step " + key}, {"eventId", key}});
        if (result) acked.signals.insert(key);
        break;
      case 2:
        result = call_tool(client, id, "log_decision",
                           {{"task_id", task_id},
                            {"category", "other"},
                            {"question", key},
                            {"chosen", "c"},
                            {"reasoning", "r"},
                            {"request_id", key}});
        if (result) acked.decisions.insert(key);
        break;
      default: {
        result = call_tool(client, id, "start_task",
                           {{"mission_id", mission_id},
                            {"parent_task_id", task_id},
                            {"name", key},
                            {"goal", "g"},
                            {"request_id", key}});
        if (!result) break;
        acked.tasks.insert(key);
        ++acknowledged;
        result = call_tool(client, id + 100000, "complete_task",
                           {{"task_id", (*result)["task_id"]},
                            {"status", "success"},
                            {"outcome", {{"summary", "o"}}},
                            {"request_id", key + "-done"}});
        if (result) acked.completed.insert(key);
        break;
      }
    }
    if (!result) return acknowledged;
    ++acknowledged;
  }
  return acknowledged;
}

// The database after recovery: SQLite finds it intact, every reference
// holds, and each acknowledged call is there exactly once.
void check_recovered(const Instance& instance, const Acknowledged& acked) {
  mission::store::Database db(instance.state_dir() / "mission.db");
  auto integrity = db.prepare("PRAGMA integrity_check");
  REQUIRE(integrity.step());
  CHECK(integrity.text(0) == "ok");
  auto foreign_keys = db.prepare("PRAGMA foreign_key_check");
  CHECK_FALSE(foreign_keys.step());
  for (const std::string& key : acked.signals) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM observations WHERE event_id = ?1", key) == 1);
  }
  for (const std::string& key : acked.decisions) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM decisions WHERE question = ?1", key) == 1);
  }
  for (const std::string& key : acked.tasks) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM tasks WHERE name = ?1", key) == 1);
  }
  for (const std::string& key : acked.completed) {
    INFO(key);
    CHECK(count(db, "SELECT COUNT(*) FROM tasks WHERE name = ?1 AND status = 'success'", key) == 1);
  }
  for (const char* table : {"decisions", "tasks"}) {
    auto duplicates = db.prepare(std::string("SELECT COUNT(*) FROM (SELECT ") +
                                 (std::string(table) == "tasks" ? "name" : "question") + " FROM " +
                                 table + " GROUP BY 1 HAVING COUNT(*) > 1)");
    REQUIRE(duplicates.step());
    CHECK(duplicates.integer(0) == 0);
  }
  auto observations = db.prepare(
      "SELECT COUNT(*) FROM (SELECT event_id FROM observations WHERE event_id IS NOT NULL GROUP BY "
      "1 HAVING COUNT(*) > 1)");
  REQUIRE(observations.step());
  CHECK(observations.integer(0) == 0);
}

// For each round: a daemon armed to SIGKILL itself at hit `first`..`last`
// (drawn at random) of `point`, under load until it dies there; then a
// clean start, the CLI, and the acknowledged calls checked.
void kill_at_point(const std::string& point, int first, int last) {
  Instance instance;
  fs::path cwd = instance.root.path() / "work";
  for (const char* dir : {"src", "src/lib", "docs"}) fs::create_directories(cwd / dir);
  for (const char* file : {"README", "src/main.c", "src/lib/util.c", "docs/guide.md"}) {
    std::ofstream(cwd / file) << file << "\n";
  }
  std::string execution_id;
  std::string token;
  std::string mission_id;
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
    mission_id =
        (*call_tool(client, 2, "start_mission", {{"name", "m"}, {"objective", "o"}}))["mission_id"];
    task_id = (*call_tool(client, 3, "start_task",
                          {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}}))["task_id"];
  }
  Acknowledged acked;
  std::mt19937 random(std::random_device{}());
  constexpr int kRounds = 3;
  for (int round = 0; round < kRounds; ++round) {
    const int hit = std::uniform_int_distribution<int>(first, last)(random);
    INFO(point << " killed at hit " << hit);
    std::optional<DaemonProcess> daemon;
    {
      ArmedFaults armed(point + ":kill@" + std::to_string(hit));
      daemon.emplace(instance);
    }
    REQUIRE(daemon->ready());
    RawClient client(instance.socket());
    REQUIRE(open_session(client, execution_id, token, cwd));
    load_until_killed(client, point + std::to_string(round), mission_id, task_id, acked, 4000);
    // The point fired: the daemon did not stop any other way.
    CHECK(daemon->wait_exit() == 128 + SIGKILL);
  }
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  CHECK(run_mission(instance, {"status"}).exit_code == 0);
  CHECK(acked.signals.size() > 0);
  check_recovered(instance, acked);
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
    client.send(
        json{{"jsonrpc", "2.0"},
             {"id", 2},
             {"method", "tools/call"},
             {"params",
              {{"name", "start_mission"}, {"arguments", {{"name", "m"}, {"objective", "o"}}}}}}
            .dump() +
        "\n");
    std::string mission_id = (*client.read())["result"]["structuredContent"]["mission_id"];
    client.send(json{{"jsonrpc", "2.0"},
                     {"id", 3},
                     {"method", "tools/call"},
                     {"params",
                      {{"name", "start_task"},
                       {"arguments", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}}}}}}
                    .dump() +
                "\n");
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
      json arguments = decision
                           ? json{{"task_id", task_id}, {"category", "other"}, {"question", key},
                                  {"chosen", "c"},      {"reasoning", "r"},    {"request_id", key}}
                           : json{{"summary", "step " + key}, {"eventId", key}};
      json request = {
          {"jsonrpc", "2.0"},
          {"id", 100 + n},
          {"method", "tools/call"},
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
  auto duplicates = db.prepare(
      "SELECT COUNT(*) FROM (SELECT question FROM decisions GROUP BY question HAVING COUNT(*) > "
      "1)");
  REQUIRE(duplicates.step());
  CHECK(duplicates.integer(0) == 0);
}

TEST_CASE(
    "after SIGKILL between a commit and its acknowledgement every acknowledged call is there "
    "once") {
  // Hits count every reply, control and MCP: the kill comes after the
  // ledger's or the tracking transaction's commit, the reply unsent.
  kill_at_point("reply_unsent", 5, 120);
}

TEST_CASE(
    "after SIGKILL inside a transaction before its COMMIT every acknowledged call is there once") {
  kill_at_point("before_commit", 4, 80);
}

TEST_CASE("after SIGKILL during a snapshot's walk every acknowledged call is there once") {
  // start_task and complete_task each walk the four directories of the tree.
  kill_at_point("snapshot_walk", 1, 60);
}
