// What seed 003 (orchestration-mcp-interface.md) says of workflows,
// repositories, agents and messages, through the real bridge and daemon:
// a workflow's status must be true of its tasks, a repository must exist,
// a workflow without a repository is in the current directory, an agent's
// runtime is one the seed names and registering again keeps what it does
// not give, message_list takes a Unix time, and a thread reads as both
// halves of a conversation.

#include <catch2/catch.hpp>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* kToolsets = "planning,coordination";

std::string make_workflow(Agent& planner, int tasks) {
  json workflow = planner.ok("workflow_create", {{"name", "rules"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "follow the seed"},
                                                 {"max_parallel_tasks", 4}});
  json plan = json::array();
  for (int i = 0; i < tasks; ++i) {
    plan.push_back({{"name", "t" + std::to_string(i)}, {"description", "d"}, {"sequence", 1}});
  }
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", plan}}}});
  return workflow["id"];
}

}  // namespace

TEST_CASE("a workflow's status must be true of its tasks") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent planner(instance, instance.root.path(), kToolsets);
  const std::string workflow = make_workflow(planner, 2);
  const json tasks = planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"];
  const std::string first = tasks[0]["id"];
  const std::string second = tasks[1]["id"];

  planner.ok("workflow_update_status", {{"id", workflow}, {"status", "in_progress"}});
  // Not completed while tasks are still to do.
  json early = planner.call("workflow_update_status", {{"id", workflow}, {"status", "completed"}});
  CHECK(early["isError"] == true);
  CHECK(early["structuredContent"]["code"] == "invalid_argument");
  CHECK(early["structuredContent"]["message"].get<std::string>().find("not completed") !=
        std::string::npos);

  // Not back to planning while a task runs, nor while one is claimed.
  planner.ok("task_update_status", {{"id", first}, {"status", "in_progress"}});
  CHECK(planner.error_code("workflow_update_status", {{"id", workflow}, {"status", "planning"}}) ==
        "invalid_argument");
  planner.ok("task_update_status", {{"id", first}, {"status", "completed"}, {"outcome", "done"}});
  Agent worker(instance, instance.root.path(), kToolsets);
  worker.ok("task_claim", {{"task_id", second}});
  CHECK(planner.error_code("workflow_update_status", {{"id", workflow}, {"status", "planning"}}) ==
        "invalid_argument");
  worker.ok("task_update_status", {{"id", second}, {"status", "in_progress"}});
  worker.ok("task_update_status", {{"id", second}, {"status", "completed"}, {"outcome", "done"}});
  // Every task done: the workflow followed its tasks and is completed.
  CHECK(planner.ok("workflow_get", {{"id", workflow}})["status"] == "completed");
}

TEST_CASE("a repository must exist, and a workflow made without one is in the current directory") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  json missing =
      planner.call("repository_register", {{"path", (instance.root.path() / "nowhere").string()}});
  CHECK(missing["isError"] == true);
  CHECK(missing["structuredContent"]["code"] == "invalid_argument");
  CHECK(missing["structuredContent"]["message"].get<std::string>().find("does not exist") !=
        std::string::npos);
  write_file(instance.root.path() / "a-file", "x\n");
  CHECK(planner.error_code("repository_register",
                           {{"path", (instance.root.path() / "a-file").string()}}) ==
        "invalid_argument");
  CHECK(planner.ok("repository_register", {{"path", repo.string()}})["already_registered"] ==
        false);

  const std::string workflow = make_workflow(planner, 1);
  json listed = planner.ok("workflow_list", {{"repository_path", repo.string()}});
  REQUIRE(listed["workflows"].size() == 1);
  CHECK(listed["workflows"][0]["id"] == workflow);
  CHECK(planner.ok("workflow_get", {{"id", workflow}})["repository_path"] == repo.string());
}

TEST_CASE(
    "an agent's runtime is one the seed names, and registering again keeps what it leaves out") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path(), kToolsets);
  json refused = agent.call("agent_register", {{"name", "a"}, {"runtime", "skynet"}});
  CHECK(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "invalid_argument");
  agent.ok("agent_register", {{"name", "a"},
                              {"runtime", "claude_code"},
                              {"capabilities", {"rust", "testing"}},
                              {"workspace_path", "/work/a"},
                              {"metadata", {{"team", "core"}}}});
  agent.ok("agent_register", {{"name", "a2"}, {"runtime", "codex"}});
  json shown = agent.ok("agent_get", {{"id", agent.execution_id()}});
  CHECK(shown["name"] == "a2");
  CHECK(shown["runtime"] == "codex");
  CHECK(shown["capabilities"] == json::array({"rust", "testing"}));
  CHECK(shown["workspace_path"] == "/work/a");
  CHECK(shown["metadata"]["team"] == "core");
  // Given again, they change.
  agent.ok("agent_register",
           {{"name", "a2"}, {"runtime", "codex"}, {"capabilities", json::array()}});
  CHECK(agent.ok("agent_get", {{"id", agent.execution_id()}})["capabilities"] == json::array());
}

TEST_CASE("message_list takes a Unix time and a thread reads as both halves of the conversation") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent a(instance, instance.root.path(), kToolsets);
  Agent b(instance, instance.root.path(), kToolsets);
  json question = a.ok(
      "message_send",
      {{"recipient_id", b.execution_id()}, {"message_type", "query"}, {"body", "which port?"}});
  json answer = b.ok("message_send", {{"recipient_id", a.execution_id()},
                                      {"message_type", "response"},
                                      {"body", "8080"},
                                      {"reply_to_id", question["id"]}});
  const std::string thread = b.ok("message_get", {{"id", question["id"]}})["thread_id"];
  CHECK(b.ok("message_get", {{"id", answer["id"]}})["thread_id"] == thread);

  // Both sides see the whole thread: what they sent and what they got.
  for (Agent* side : {&a, &b}) {
    json listed = side->ok("message_list", {{"thread_id", thread}, {"status", "all"}});
    INFO(listed.dump());
    REQUIRE(listed["messages"].size() == 2);
  }

  // Unix seconds, as the seed's type, and milliseconds.
  const auto now_s = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  CHECK(a.ok("message_list", {{"since", now_s - 3600}, {"status", "all"}})["messages"].size() == 1);
  CHECK(a.ok("message_list", {{"since", now_s + 3600}, {"status", "all"}})["messages"].empty());
  CHECK(a.ok("message_list", {{"since", (now_s - 3600) * 1000}, {"status", "all"}})["messages"]
            .size() == 1);
  CHECK(a.ok("message_list", {{"since", "2000-01-01T00:00:00Z"}, {"status", "all"}})["messages"]
            .size() == 1);
}
