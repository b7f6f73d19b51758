// Claims as leases through the real socket and real processes
// (docs/adr/0019): 50 agents racing for 10 tasks get exactly one winner
// each and every task ends done; a claiming agent killed with SIGKILL, or
// a daemon killed under a claiming agent, leaves the task ready again with
// a recovery checkpoint saying why.

#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "integration/tracking_agent.hpp"
#include "support/test_scale.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A planned workflow of `count` tasks that may all run at once; returns its id.
std::string make_workflow(Agent& planner, int count) {
  json workflow = planner.ok("workflow_create", {{"name", "race"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "race for tasks"},
                                                 {"max_parallel_tasks", count}});
  json tasks = json::array();
  for (int i = 0; i < count; ++i) {
    tasks.push_back({{"name", "task-" + std::to_string(i)},
                     {"description", "part " + std::to_string(i)},
                     {"sequence", 1}});
  }
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

json task_of(Agent& reader, const std::string& id) {
  return reader.ok("task_get", {{"id", id}, {"include_checkpoints", true}});
}

// Polls until the task is ready again (its claim ended).
json wait_ready(Agent& reader, const std::string& id, std::chrono::seconds limit = 20s) {
  json task;
  if (eventually(
          [&] {
            task = task_of(reader, id);
            return task.value("status", "") == "ready";
          },
          limit, 20ms)) {
    return task;
  }
  FAIL("task " << id << " never became ready: " << task.dump());
  return task;
}

std::string recovery_summary(const json& task) {
  for (const auto& checkpoint : task.value("checkpoints", json::array())) {
    if (checkpoint.value("type", "") == "recovery") return checkpoint.value("summary", "");
  }
  return "";
}

}  // namespace

TEST_CASE("50 agents racing for 10 tasks: exactly one winner each, every task done, none lost",
          "[heavy]") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent planner(instance, instance.root.path(), "planning,coordination");
  const std::string workflow = make_workflow(planner, 10);
  // 20 in the sanitized build: still two or more claims on every task.
  const int racers = scaled_count(50, 20);
  std::vector<std::unique_ptr<Agent>> agents;
  for (int i = 0; i < racers; ++i) {
    agents.push_back(
        std::make_unique<Agent>(instance, instance.root.path(), "planning,coordination"));
  }
  std::map<std::string, std::string> winner;  // task -> agent
  int refused = 0;
  for (int round = 0; round < 5; ++round) {
    json offered =
        agents[0]->ok("task_get_available", {{"workflow_id", workflow}, {"limit", 100}})["tasks"];
    if (offered.empty()) break;
    // Every agent sends its claim before any reply is read: the daemon sees
    // every claim for the offered tasks at once, two or more on each.
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i]->send_call("task_claim", {{"task_id", offered[i % offered.size()]["id"]}});
    }
    std::vector<std::pair<std::size_t, std::string>> won;
    for (std::size_t i = 0; i < agents.size(); ++i) {
      json result = agents[i]->reply(10s);
      const std::string task = offered[i % offered.size()]["id"];
      if (result["isError"] == false) {
        INFO("task " << task << " won twice");
        REQUIRE(winner.count(task) == 0);
        winner[task] = agents[i]->execution_id();
        won.emplace_back(i, task);
      } else {
        CHECK(result["structuredContent"]["code"] == "already_claimed");
        CHECK(result["structuredContent"]["details"]["already_claimed_by"].is_string());
        ++refused;
      }
    }
    for (const auto& [i, task] : won) {
      agents[i]->ok("task_update_status", {{"id", task}, {"status", "in_progress"}});
      agents[i]->ok("task_update_status",
                    {{"id", task}, {"status", "completed"}, {"outcome", "done"}});
    }
  }
  CHECK(winner.size() == 10);
  CHECK(refused == racers - 10);
  json progress = planner.ok("workflow_progress", {{"workflow_id", workflow}});
  INFO(progress.dump());
  CHECK(progress["by_status"]["completed"] == 10);
  CHECK(planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"].empty());
  // Each winner shows the task it held until it ended: none held now.
  json shown = mission_json(instance, {"exec", "show", winner.begin()->second});
  CHECK(shown["claims"].empty());
}

namespace {

std::set<std::string> ids_of(const json& tasks) {
  std::set<std::string> out;
  for (const auto& task : tasks) out.insert(task["id"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE(
    "workflow_next_tasks offers no claimed task: claims, releases and completions keep it in "
    "step") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent planner(instance, instance.root.path(), "planning,coordination");
  // A random DAG of 14 tasks: each depends on a few earlier ones.
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 random(seed);
  constexpr int kTasks = 14;
  json workflow = planner.ok("workflow_create", {{"name", "claimed"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "claims and next tasks"},
                                                 {"max_parallel_tasks", 3}});
  const std::string id = workflow["id"];
  json tasks = json::array();
  std::map<std::string, std::set<std::string>> depends;  // name -> prerequisite names
  for (int i = 0; i < kTasks; ++i) {
    const std::string name = "t" + std::to_string(i);
    json entry = {{"name", name}, {"description", "part " + std::to_string(i)}, {"sequence", 1}};
    json on = json::array();
    for (int j = 0; j < i; ++j) {
      if (random() % 5 == 0) {
        on.push_back("t" + std::to_string(j));
        depends[name].insert("t" + std::to_string(j));
      }
    }
    if (!on.empty()) entry["depends_on"] = on;
    tasks.push_back(entry);
  }
  planner.ok("workflow_set_plan",
             {{"id", id}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  std::vector<std::unique_ptr<Agent>> agents;
  for (int i = 0; i < 3; ++i) {
    agents.push_back(
        std::make_unique<Agent>(instance, instance.root.path(), "planning,coordination"));
  }
  auto next = [&] {
    return planner.ok("workflow_next_tasks", {{"workflow_id", id}, {"limit", 50}});
  };

  // A claimed task leaves the offer as soon as it is claimed, and comes
  // back when it is released. The first read fills the DAG cache, so the
  // later ones see the claim only if the cache learns of it.
  json before = next();
  REQUIRE_FALSE(before["tasks"].empty());
  const std::string first = before["tasks"][0]["id"];
  CHECK(before["claimed_count"] == 0);
  agents[0]->ok("task_claim", {{"task_id", first}});
  json during = next();
  CHECK(ids_of(during["tasks"]).count(first) == 0);
  CHECK(during["available_count"] == before["available_count"].get<int>() - 1);
  CHECK(during["claimed_count"] == 1);
  CHECK(during["recommended_count"].get<int>() <= 2);  // max_parallel_tasks 3, one claimed
  agents[0]->ok("task_release", {{"task_id", first}, {"reason", "changed my mind"}});
  json after = next();
  CHECK(ids_of(after["tasks"]).count(first) == 1);
  CHECK(after["tasks"] == before["tasks"]);
  CHECK(after["claimed_count"] == 0);

  // Random claims, releases and completions by three agents: after each,
  // next_tasks offers exactly the tasks task_get_available lists (ready and
  // unclaimed), never a claimed one, never one with an unfinished prerequisite.
  std::map<std::string, std::string> name_of;  // id -> name
  std::map<std::string, std::size_t> held;     // id -> agent
  std::set<std::string> completed;             // names
  for (int step = 0; step < 80 && completed.size() < static_cast<std::size_t>(kTasks); ++step) {
    json offered = next();
    json available = planner.ok("task_get_available", {{"workflow_id", id}, {"limit", 100}});
    INFO("step " << step << " next " << offered.dump() << " available " << available.dump());
    REQUIRE(ids_of(offered["tasks"]) == ids_of(available["tasks"]));
    CHECK(offered["claimed_count"] == held.size());  // claimed, none started
    for (const auto& task : offered["tasks"]) {
      name_of[task["id"]] = task["name"];
      CHECK(held.count(task["id"]) == 0);
      for (const auto& prerequisite : depends[task["name"].get<std::string>()]) {
        CHECK(completed.count(prerequisite) == 1);
      }
    }
    const std::size_t who = random() % agents.size();
    std::vector<std::string> mine;
    for (const auto& [task, agent] : held) {
      if (agent == who) mine.push_back(task);
    }
    const int action = static_cast<int>(random() % 3);
    if ((action == 0 || mine.empty()) && !offered["tasks"].empty()) {
      const std::string task = offered["tasks"][random() % offered["tasks"].size()]["id"];
      agents[who]->ok("task_claim", {{"task_id", task}});
      held[task] = who;
    } else if (action == 1 && !mine.empty()) {
      const std::string task = mine[random() % mine.size()];
      agents[who]->ok("task_release", {{"task_id", task}});
      held.erase(task);
    } else if (!mine.empty()) {
      const std::string task = mine[random() % mine.size()];
      agents[who]->ok("task_update_status", {{"id", task}, {"status", "in_progress"}});
      if (random() % 2 == 0) {
        // Still in progress for a step: neither offered nor claimable.
        CHECK(ids_of(next()["tasks"]).count(task) == 0);
      }
      agents[who]->ok("task_update_status",
                      {{"id", task}, {"status", "completed"}, {"outcome", "done"}});
      held.erase(task);
      completed.insert(name_of[task]);
    }
  }
  // The agents end (their sessions close and a person stops their
  // executions, which mission did not launch): any claim left is released
  // with them, and its task is offered again. A session closing alone does
  // not end such an execution; its claims would wait for the lease.
  std::set<std::string> left;
  for (const auto& [task, agent] : held) left.insert(task);
  std::vector<std::string> ended;
  for (const auto& agent : agents) ended.push_back(agent->execution_id());
  agents.clear();
  for (const auto& execution : ended) {
    ProcessResult stopped = run_mission(instance, {"exec", "stop", execution});
    INFO(stopped.out << stopped.err);
    CHECK(stopped.exit_code == 0);
  }
  std::set<std::string> offered;
  CHECK(eventually(
      [&] {
        offered = ids_of(next()["tasks"]);
        return std::includes(offered.begin(), offered.end(), left.begin(), left.end());
      },
      20s, 20ms));
  CHECK(next()["claimed_count"] == 0);
}

TEST_CASE(
    "a claiming agent killed with SIGKILL: its task is ready again with a recovery checkpoint") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent planner(instance, instance.root.path(), "planning,coordination");
  const std::string workflow = make_workflow(planner, 2);
  const std::string task =
      planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"][0]["id"];

  // An agent the way a user adds mission to its MCP config: the bridge
  // creates its execution, which lives as long as the bridge's session.
  StdioProcess bridge({MISSION_PATH, "mcp", "connect", "--toolsets", "planning,coordination"},
                      instance.env(), instance.root.path().string());
  REQUIRE(bridge
              .request(1, "initialize",
                       {{"protocolVersion", "2025-06-18"},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", "claimer"}, {"version", "1"}}}})
              .contains("result"));
  bridge.send(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  json registered = bridge.request(
      2, "tools/call",
      {{"name", "agent_register"}, {"arguments", {{"name", "doomed"}, {"runtime", "custom"}}}});
  const std::string agent = registered["result"]["structuredContent"]["id"];
  json claimed =
      bridge.request(3, "tools/call", {{"name", "task_claim"}, {"arguments", {{"task_id", task}}}});
  REQUIRE(claimed["result"]["isError"] == false);
  // Held: not even the workflow's owner starts it.
  CHECK(planner.error_code("task_update_status", {{"id", task}, {"status", "in_progress"}}) ==
        "already_claimed");
  json started = bridge.request(
      4, "tools/call",
      {{"name", "task_update_status"}, {"arguments", {{"id", task}, {"status", "in_progress"}}}});
  REQUIRE(started["result"]["isError"] == false);
  json shown = mission_json(instance, {"exec", "show", agent});
  REQUIRE(shown["claims"].size() == 1);
  CHECK(shown["claims"][0]["taskId"] == task);
  CHECK(shown["agentName"] == "doomed");
  ProcessResult text = run_mission(instance, {"exec", "show", agent});
  CHECK(text.out.find(task) != std::string::npos);

  ::kill(bridge.pid(), SIGKILL);
  json ready = wait_ready(planner, task);
  CHECK(recovery_summary(ready).find(agent) != std::string::npos);
  CHECK(mission_json(instance, {"exec", "show", agent})["claims"].empty());
  // Another agent takes it.
  Agent next(instance, instance.root.path(), "planning,coordination");
  CHECK(next.ok("task_claim", {{"task_id", task}})["success"] == true);
  // A task started without a claim is held by whoever started it.
  json other = planner.ok("task_get_available", {{"workflow_id", workflow}});
  REQUIRE(other["tasks"].size() == 1);
  const std::string second = other["tasks"][0]["id"];
  planner.ok("task_update_status", {{"id", second}, {"status", "in_progress"}});
  CHECK(next.error_code("task_claim", {{"task_id", second}}) == "already_claimed");
  CHECK(mission_json(instance, {"exec", "show", planner.execution_id()})["claims"].size() == 1);
}

TEST_CASE(
    "a daemon killed under a claiming agent: after the restart the lost execution's claim is "
    "released") {
  Instance instance;
  std::string task;
  std::string id;
  pid_t agent_pid = 0;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, instance.root.path(), "planning,coordination");
    const std::string workflow = make_workflow(planner, 1);
    task = planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"][0]["id"];
    // A launched agent: a shell that claims through its own bridge, then
    // keeps running.
    const json init = {{"jsonrpc", "2.0"},
                       {"id", 1},
                       {"method", "initialize"},
                       {"params",
                        {{"protocolVersion", "2025-06-18"},
                         {"capabilities", json::object()},
                         {"clientInfo", {{"name", "sh"}, {"version", "1"}}}}}};
    const json claim = {{"jsonrpc", "2.0"},
                        {"id", 2},
                        {"method", "tools/call"},
                        {"params", {{"name", "task_claim"}, {"arguments", {{"task_id", task}}}}}};
    const std::string script =
        "printf '%s\\n' '" + init.dump() + "' '" + claim.dump() + "' | '" +
        std::string(MISSION_PATH) +
        "' mcp connect --agent-execution \"$MISSION_AGENT_EXECUTION_ID\" >/dev/null; "
        "exec sleep 600";
    ProcessResult started =
        run_mission(instance, {"run", "--toolsets", "coordination", "--delivery", "mcp-tool",
                               "--detach", "--", "sh", "-c", script});
    INFO(started.err);
    REQUIRE(started.exit_code == 0);
    id = started.out.substr(0, started.out.find('\n'));
    json shown;
    eventually(
        [&] {
          shown = mission_json(instance, {"exec", "show", id});
          return !shown["claims"].empty();
        },
        10s, 20ms);
    REQUIRE(shown["claims"].size() == 1);
    agent_pid = shown["pid"];
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  CHECK(mission_json(instance, {"exec", "show", id})["state"] == "lost");
  Agent reader(instance, instance.root.path(), "planning,coordination");
  json ready = task_of(reader, task);
  CHECK(ready["status"] == "ready");
  CHECK(recovery_summary(ready).find("lost") != std::string::npos);
  if (agent_pid > 0) ::kill(agent_pid, SIGKILL);
}

TEST_CASE(
    "a task started with start_task whose agent ended is started and ended with task_update_status "
    "by its next holder") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, "planning,coordination");
  const std::string workflow = make_workflow(planner, 1);
  const std::string task =
      planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"][0]["id"];

  // A tracking agent starts it (a snapshot is taken), then its execution ends.
  Agent first(instance, repo, "planning,coordination,tracking");
  first.ok("task_claim", {{"task_id", task}});
  first.ok("start_task", {{"task_id", task}, {"name", "task-0"}, {"goal", "part 0"}});
  REQUIRE(run_mission(instance, {"exec", "stop", first.execution_id()}).exit_code == 0);
  wait_ready(planner, task);

  // A seed-003 agent, with no tracking tools, does the task its own way.
  Agent next(instance, repo, "planning,coordination");
  next.ok("task_claim", {{"task_id", task}});
  next.ok("task_update_status", {{"id", task}, {"status", "in_progress"}});
  json done = next.ok("task_update_status",
                      {{"id", task}, {"status", "completed"}, {"outcome", "done its way"}});
  CHECK(done["status"] == "completed");
  CHECK(task_of(planner, task)["status"] == "completed");
}

TEST_CASE("a holder whose claim ended writes nothing more to the task until it claims it again") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent planner(instance, instance.root.path(), "planning,coordination");
  const std::string workflow = make_workflow(planner, 1);
  const std::string task =
      planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"][0]["id"];
  Agent holder(instance, instance.root.path(), "planning,coordination");
  holder.ok("task_claim", {{"task_id", task}});
  const json note = {{"task_id", task}, {"type", "progress"}, {"summary", "halfway"}};
  holder.ok("checkpoint_add", note);

  holder.ok("task_release", {{"task_id", task}, {"reason", "stepping away"}});
  json refused = holder.call("checkpoint_add", note);
  INFO(refused.dump());
  CHECK(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "forbidden");
  CHECK(refused["structuredContent"]["hint"].get<std::string>().find("task_claim") !=
        std::string::npos);
  CHECK(holder.error_code("task_update_status", {{"id", task}, {"status", "in_progress"}}) ==
        "forbidden");

  Agent other(instance, instance.root.path(), "planning,coordination");
  other.ok("task_claim", {{"task_id", task}});
  json taken = holder.call("checkpoint_add", note);
  CHECK(taken["structuredContent"]["code"] == "forbidden");
  CHECK(taken["structuredContent"]["message"].get<std::string>().find(other.execution_id()) !=
        std::string::npos);
  other.ok("checkpoint_add", note);
  // The workflow's owner still may.
  planner.ok("checkpoint_add", note);
}

TEST_CASE(
    "an attached agent cut off by daemon stop --force ends cancelled and its task is ready again") {
  Instance instance;
  auto daemon = std::make_unique<DaemonProcess>(instance);
  REQUIRE(daemon->ready());
  Agent planner(instance, instance.root.path(), "planning,coordination");
  const std::string workflow = make_workflow(planner, 1);
  const std::string task =
      planner.ok("task_get_available", {{"workflow_id", workflow}})["tasks"][0]["id"];
  StdioProcess bridge({MISSION_PATH, "mcp", "connect", "--toolsets", "planning,coordination"},
                      instance.env(), instance.root.path().string());
  REQUIRE(bridge
              .request(1, "initialize",
                       {{"protocolVersion", "2025-06-18"},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", "worker"}, {"version", "1"}}}})
              .contains("result"));
  bridge.send(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  json registered = bridge.request(
      2, "tools/call",
      {{"name", "agent_register"}, {"arguments", {{"name", "cut"}, {"runtime", "custom"}}}});
  const std::string agent = registered["result"]["structuredContent"]["id"];
  REQUIRE(bridge.request(3, "tools/call",
                         {{"name", "task_claim"},
                          {"arguments", {{"task_id", task}}}})["result"]["isError"] == false);
  REQUIRE(bridge.request(
              4, "tools/call",
              {{"name", "task_update_status"},
               {"arguments", {{"id", task}, {"status", "in_progress"}}}})["result"]["isError"] ==
          false);

  ProcessResult stopped = run_mission(instance, {"daemon", "stop", "--force"});
  INFO(stopped.out << stopped.err);
  CHECK(stopped.exit_code == 0);
  CHECK(daemon->wait_exit() == 0);
  daemon = std::make_unique<DaemonProcess>(instance);
  REQUIRE(daemon->ready());
  CHECK(mission_json(instance, {"exec", "show", agent})["state"] == "cancelled");
  Agent reader(instance, instance.root.path(), "planning,coordination");
  const std::string why = recovery_summary(wait_ready(reader, task));
  CHECK(why.find("cancelled") != std::string::npos);
  CHECK(why.find("completed") == std::string::npos);
}
