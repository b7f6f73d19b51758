// Authorization between executions, through the real daemon and bridges: a
// tracked record is changed only by its owner, its mission's owner or an
// execution granted it; a session whose execution has ended changes
// nothing more.

#include <catch2/catch.hpp>
#include <string>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A session with no execution named: the bridge creates one for it.
class Anonymous {
 public:
  Anonymous(const Instance& instance, const fs::path& cwd)
      : bridge_({MISSION_PATH, "mcp", "connect"}, instance.env(), cwd.string()) {
    REQUIRE(bridge_
                .request(1, "initialize",
                         {{"protocolVersion", "2025-06-18"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "anonymous"}, {"version", "1"}}}})
                .contains("result"));
  }
  std::string error_code(const std::string& tool, const json& arguments) {
    json reply =
        bridge_.request(next_id_++, "tools/call", {{"name", tool}, {"arguments", arguments}});
    INFO(reply.dump());
    REQUIRE(reply["result"]["isError"] == true);
    return reply["result"]["structuredContent"]["code"];
  }

 private:
  StdioProcess bridge_;
  int next_id_ = 2;
};

}  // namespace

TEST_CASE(
    "another execution, or a session with no token, cannot change a mission or task it does not "
    "own") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent owner(instance, instance.root.path());
  Agent other(instance, instance.root.path());
  std::string mission_id =
      owner.ok("start_mission", {{"name", "mine"}, {"objective", "o"}})["mission_id"];
  std::string task_id =
      owner.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];

  json refused = other.call(
      "complete_task",
      {{"task_id", task_id}, {"status", "failed"}, {"outcome", {{"summary", "sabotage"}}}});
  REQUIRE(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "forbidden");
  CHECK(refused["structuredContent"]["details"]["owner"] == owner.execution_id());
  CHECK(!refused["structuredContent"]["hint"].get<std::string>().empty());
  CHECK(other.error_code("log_issue", {{"task_id", task_id},
                                       {"type", "other"},
                                       {"description", "d"},
                                       {"resolution", "r"},
                                       {"requires_human_review", true}}) == "forbidden");
  CHECK(
      other.error_code("start_task", {{"mission_id", mission_id}, {"name", "t2"}, {"goal", "g"}}) ==
      "forbidden");
  CHECK(other.error_code("start_task",
                         {{"parent_task_id", task_id}, {"name", "sub"}, {"goal", "g"}}) ==
        "forbidden");
  CHECK(other.error_code("complete_mission", {{"mission_id", mission_id},
                                              {"status", "completed"},
                                              {"summary", "s"},
                                              {"open_tasks", "close"}}) == "forbidden");

  Anonymous anonymous(instance, instance.root.path());
  CHECK(anonymous.error_code("complete_mission", {{"mission_id", mission_id},
                                                  {"status", "failed"},
                                                  {"summary", "s"},
                                                  {"open_tasks", "close"}}) == "forbidden");

  // Reading stays open; and nothing above changed the owner's records.
  json context = other.ok(
      "get_context", {{"mission_id", mission_id}, {"include", strings({"tasks", "blockers"})}});
  CHECK(context["mission_status"] == "in_progress");
  CHECK(context["tasks"][0]["status"] == "in_progress");
  CHECK(context["blockers"].empty());
  owner.ok("complete_task",
           {{"task_id", task_id}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
}

TEST_CASE("a mission's owner may act on its tasks, and a grant lets another execution in") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent coordinator(instance, instance.root.path());
  Agent worker(instance, instance.root.path());
  std::string mission_id =
      coordinator.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  CHECK(
      worker.error_code("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}}) ==
      "forbidden");
  {
    mission::store::Database db(instance.state_dir() / "mission.db");
    db.prepare("INSERT INTO grants (execution_id, mission_id, created_at) VALUES (?, ?, 1)")
        .bind(1, worker.execution_id())
        .bind(2, mission_id)
        .run();
  }
  std::string task_id = worker.ok(
      "start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];
  // The coordinator, owner of the mission, may close its worker's task.
  coordinator.ok("log_milestone",
                 {{"task_id", task_id}, {"message", "checked by the coordinator"}});
  coordinator.ok("complete_task",
                 {{"task_id", task_id}, {"status", "success"}, {"outcome", {{"summary", "ok"}}}});
}

TEST_CASE("a stopped execution's session changes nothing more but may still leave a message") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  std::string task_id =
      agent.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];
  REQUIRE(run_mission(instance, {"exec", "stop", agent.execution_id()}).exit_code == 0);

  CHECK(agent.error_code(
            "complete_task",
            {{"task_id", task_id}, {"status", "success"}, {"outcome", {{"summary", "late"}}}}) ==
        "execution_final");
  CHECK(agent.error_code("start_mission", {{"name", "another"}, {"objective", "o"}}) ==
        "execution_final");
  CHECK(agent.error_code("progress", {{"summary", "still here"}}) == "execution_final");
  CHECK(agent.ok("message", {{"text", "a note after the end"}})["status"] == "recorded-only");
  agent.ok("get_context", {{"mission_id", mission_id}, {"include", strings({"tasks"})}});
}
