// The control toolset (docs/adr/0025) through the real bridge, the real
// daemon, a real git repository and real agent processes: a coordinator
// lists executors and tasks, adds a task, starts an attempt on one (its
// agent, a shell command, writes a file in the attempt's worktree), follows
// its status and logs, reads its changes and patch, follows up with a
// second turn, queues and cancels follow-ups, and stops a running attempt.
// A worker gets no control tools, and another coordinator cannot steer an
// attempt it did not start.

#include <catch2/catch.hpp>
#include <functional>
#include <thread>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* kCoordinatorToolsets = "planning,control,tracking";

std::string make_workflow(Agent& coordinator) {
  json workflow = coordinator.ok("workflow_create", {{"name", "steered"},
                                                     {"source_type", "prompt"},
                                                     {"source_content", "steer agents"},
                                                     {"max_parallel_tasks", 2}});
  json tasks = json::array({{{"name", "alpha"}, {"description", "make alpha"}, {"sequence", 1}},
                            {{"name", "beta"},
                             {"description", "make beta"},
                             {"sequence", 1},
                             {"depends_on", {"alpha"}}}});
  coordinator.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

std::string task_id_named(const json& listed, const std::string& name) {
  for (const auto& task : listed["tasks"]) {
    if (task["name"] == name) return task["task_id"];
  }
  FAIL("no task " << name << " in " << listed.dump());
  return "";
}

// Polls get_attempt_status (each a real tool call) until `done` says so.
json wait_attempt(Agent& coordinator, const std::string& attempt,
                  const std::function<bool(const json&)>& done) {
  json status;
  if (eventually(
          [&] {
            status = coordinator.ok("get_attempt_status", {{"attempt_id", attempt}});
            return done(status);
          },
          20s, 30ms)) {
    return status;
  }
  FAIL("the attempt did not get there in time: " << status.dump());
  return status;
}

// The fake agent: writes NAME.txt in its worktree and prints its turn; with
// `hold`, its first turn stays running until stopped.
json agent_args(bool hold = false) {
  std::string script =
      "printf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"; echo "
      "\"turn-$MISSION_TASK_ATTEMPT\"";
  if (hold)
    script = "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then echo holding; sleep 30; fi; " + script;
  return json::array({"/bin/sh", "-c", script});
}

}  // namespace

TEST_CASE(
    "a coordinator starts an attempt and follows it then reads its changes and patch and follows "
    "up with a second turn") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent coordinator(instance, repo, kCoordinatorToolsets);
  const std::string workflow = make_workflow(coordinator);

  const json executors = coordinator.ok("list_executors", json::object());
  bool generic = false;
  bool claude = false;
  for (const auto& executor : executors["executors"]) {
    if (executor["name"] == "generic") generic = executor["available"] == true;
    if (executor["name"] == "claude-code")
      claude = executor["mcp"] == true && executor.contains("binary");
  }
  CHECK(generic);
  CHECK(claude);

  json listed = coordinator.ok("list_tasks", {{"workflow_id", workflow}});
  REQUIRE(listed["tasks"].size() == 2);
  CHECK(listed["tasks"][0]["status"] == "ready");
  CHECK(listed["tasks"][1]["status"] == "pending");
  const std::string alpha = task_id_named(listed, "alpha");
  // A page of one, then the next from its after_cursor.
  json first = coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"limit", 1}});
  REQUIRE(first["tasks"].size() == 1);
  REQUIRE(first.contains("after_cursor"));
  json second = coordinator.ok(
      "list_tasks",
      {{"workflow_id", workflow}, {"limit", 1}, {"after_cursor", first["after_cursor"]}});
  REQUIRE(second["tasks"].size() == 1);
  CHECK(second["tasks"][0]["name"] == "beta");
  CHECK(coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"status", {"ready"}}})["tasks"]
            .size() == 1);

  // One more task, after alpha; a prerequisite that is not there is named.
  json gamma = coordinator.ok("create_task", {{"workflow_id", workflow},
                                              {"name", "gamma"},
                                              {"description", "make gamma"},
                                              {"depends_on", {"alpha"}}});
  CHECK(gamma["status"] == "pending");
  CHECK(gamma["depends_on"] == json::array({"alpha"}));
  CHECK(coordinator.ok("list_tasks", {{"workflow_id", workflow}})["total"] == 3);
  CHECK(coordinator.error_code("create_task", {{"workflow_id", workflow},
                                               {"name", "delta"},
                                               {"description", "d"},
                                               {"depends_on", {"nothing"}}}) == "invalid_argument");
  CHECK(coordinator.error_code(
            "create_task", {{"workflow_id", workflow}, {"name", "gamma"}, {"description", "d"}}) ==
        "invalid_argument");

  json started = coordinator.ok(
      "start_task_attempt", {{"task_id", alpha}, {"executor", "generic"}, {"args", agent_args()}});
  const std::string attempt = started["attempt_id"];
  const fs::path worktree = started["worktree"].get<std::string>();
  CHECK(worktree != repo);
  CHECK(started["turns"] == 0);

  json ended = wait_attempt(coordinator, attempt, [](const json& s) { return s["final"] == true; });
  CHECK(ended["state"] == "completed");
  CHECK(ended["exit_code"] == 0);
  CHECK(ended["turns"] == 1);
  CHECK(fs::exists(worktree / "alpha.txt"));
  CHECK_FALSE(fs::exists(repo / "alpha.txt"));

  // The agent is a worker: its session would get no control tools.
  json turn = mission_json(instance, {"exec", "show", ended["execution_id"].get<std::string>()});
  INFO(turn.dump());
  REQUIRE(turn.contains("toolsets"));
  CHECK(turn["toolsets"] == json::array({"signals", "tracking"}));

  json logs = coordinator.ok("tail_attempt_logs", {{"attempt_id", attempt}});
  REQUIRE_FALSE(logs["entries"].empty());
  CHECK(logs["entries"].back()["text"] == "turn-1");
  CHECK(logs["final"] == true);
  json newer =
      coordinator.ok("tail_attempt_logs",
                     {{"attempt_id", attempt}, {"after_entry_index", logs["last_entry_index"]}});
  CHECK(newer["entries"].empty());
  CHECK(
      coordinator.error_code("tail_attempt_logs",
                             {{"attempt_id", attempt}, {"cursor", 1}, {"after_entry_index", 0}}) ==
      "mixed_pagination");

  json changes = coordinator.ok("get_attempt_changes", {{"attempt_id", attempt}});
  REQUIRE(changes["files"].size() == 1);
  CHECK(changes["files"][0]["path"] == "alpha.txt");
  CHECK(changes["files"][0]["status"] == "added");
  CHECK(changes["files"][0]["additions"] == 1);
  json patch = coordinator.ok("get_attempt_patch", {{"attempt_id", attempt}});
  CHECK(patch["patch"].get<std::string>().find("+alpha") != std::string::npos);
  CHECK(patch["truncated"] == false);
  json cut = coordinator.ok("get_attempt_patch", {{"attempt_id", attempt}, {"max_bytes", 40}});
  CHECK(cut["truncated"] == true);
  CHECK(cut["patch"].get<std::string>().size() <= 40);

  // A follow-up to an ended attempt is a new turn in the same worktree.
  json follow = coordinator.ok(
      "follow_up", {{"attempt_id", attempt}, {"mode", "send"}, {"prompt", "once more"}});
  CHECK(follow["delivered_as"] == "turn");
  json again = wait_attempt(coordinator, attempt,
                            [](const json& s) { return s["turns"] == 2 && s["final"] == true; });
  CHECK(again["state"] == "completed");
  CHECK(again["execution_id"] != ended["execution_id"]);
  CHECK(coordinator.ok("tail_attempt_logs", {{"attempt_id", attempt}})["entries"].back()["text"] ==
        "turn-2");
  CHECK(coordinator.error_code("follow_up", {{"attempt_id", attempt}, {"mode", "cancel"}}) ==
        "invalid_argument");
  // send and queue need a prompt (the schema's branches).
  CHECK(coordinator.error_code("follow_up", {{"attempt_id", attempt}, {"mode", "queue"}}) ==
        "invalid_argument");

  json task = coordinator.ok("get_task", {{"task_id", alpha}});
  REQUIRE(task["attempts"].size() == 1);
  CHECK(task["attempts"][0]["attempt_id"] == attempt);
  CHECK(task["attempt_count"] == 1);
  CHECK(coordinator.error_code("get_attempt_status", {{"attempt_id", "at-nothing"}}) ==
        "not_found");
  // beta waits for alpha, which no attempt completed.
  const std::string beta = task_id_named(listed, "beta");
  CHECK(coordinator.error_code(
            "start_task_attempt",
            {{"task_id", beta}, {"executor", "generic"}, {"args", agent_args()}}) ==
        "invalid_argument");

  // An executor whose binary the daemon cannot find: the attempt says why
  // it did not launch, and a follow-up tries again with the task's prompt.
  coordinator.ok("task_update_status",
                 {{"id", alpha}, {"status", "completed"}, {"outcome", "alpha.txt written"}});
  json missing = coordinator.ok("start_task_attempt", {{"task_id", beta}, {"executor", "codex"}});
  json failed = wait_attempt(coordinator, missing["attempt_id"],
                             [](const json& s) { return s["final"] == true; });
  CHECK(failed["state"] == "failed");
  CHECK(failed["launch_error"].get<std::string>().find("codex") != std::string::npos);
  CHECK(coordinator.ok("follow_up", {{"attempt_id", missing["attempt_id"]},
                                     {"mode", "send"},
                                     {"prompt", "try"}})["delivered_as"] == "turn");
  json retried = wait_attempt(coordinator, missing["attempt_id"],
                              [](const json& s) { return s["turns"] == 2 && s["final"] == true; });
  CHECK(retried["turns"] == 2);
  CHECK(retried["launch_error"].get<std::string>().find("codex") != std::string::npos);
  CHECK(coordinator.error_code("start_task_attempt",
                               {{"task_id", alpha}, {"executor", "nobody"}}) == "invalid_argument");
}

TEST_CASE(
    "a running attempt has follow-ups queue behind it and is stopped only by its coordinator with "
    "what was queued dropped") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent coordinator(instance, repo, kCoordinatorToolsets);
  const std::string workflow = make_workflow(coordinator);
  const std::string alpha =
      task_id_named(coordinator.ok("list_tasks", {{"workflow_id", workflow}}), "alpha");

  json started =
      coordinator.ok("start_task_attempt",
                     {{"task_id", alpha}, {"executor", "generic"}, {"args", agent_args(true)}});
  const std::string attempt = started["attempt_id"];
  wait_attempt(coordinator, attempt, [](const json& s) { return s["state"] == "running"; });
  // The task is held by the running attempt.
  CHECK(coordinator.error_code(
            "start_task_attempt",
            {{"task_id", alpha}, {"executor", "generic"}, {"args", agent_args()}}) ==
        "already_claimed");

  json queued = coordinator.ok(
      "follow_up", {{"attempt_id", attempt}, {"mode", "queue"}, {"prompt", "then this"}});
  CHECK(queued["delivered_as"] == "queued");
  CHECK(queued["follow_up_queued"] == true);
  CHECK(coordinator.error_code(
            "follow_up", {{"attempt_id", attempt}, {"mode", "queue"}, {"prompt", "and this"}}) ==
        "invalid_argument");
  CHECK(coordinator.ok("follow_up", {{"attempt_id", attempt},
                                     {"mode", "cancel"}})["delivered_as"] == "cancelled");
  coordinator.ok("follow_up",
                 {{"attempt_id", attempt}, {"mode", "queue"}, {"prompt", "then this"}});

  // Another coordinator may read the attempt but not steer it.
  Agent other(instance, repo, kCoordinatorToolsets);
  CHECK(other.ok("get_attempt_status", {{"attempt_id", attempt}})["state"] == "running");
  CHECK(other.error_code("stop_attempt", {{"attempt_id", attempt}}) == "forbidden");
  CHECK(
      other.error_code("follow_up", {{"attempt_id", attempt}, {"mode", "send"}, {"prompt", "x"}}) ==
      "forbidden");

  json stopped = coordinator.ok("stop_attempt", {{"attempt_id", attempt}, {"force", true}});
  CHECK(stopped["signalled"] == true);
  json ended = wait_attempt(coordinator, attempt, [](const json& s) { return s["final"] == true; });
  CHECK(ended["turns"] == 1);  // the queued follow-up went with the stop
  CHECK(ended["follow_up_queued"] == false);
  CHECK(ended["state"] != "completed");

  // A follow-up after the stop starts the next turn, which finishes.
  CHECK(coordinator.ok("follow_up", {{"attempt_id", attempt},
                                     {"mode", "send"},
                                     {"prompt", "finish"}})["delivered_as"] == "turn");
  json finished = wait_attempt(coordinator, attempt,
                               [](const json& s) { return s["turns"] == 2 && s["final"] == true; });
  CHECK(finished["state"] == "completed");
}

TEST_CASE("a queued follow-up launches when the running turn ends") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent coordinator(instance, repo, kCoordinatorToolsets);
  const std::string workflow = make_workflow(coordinator);
  const std::string alpha =
      task_id_named(coordinator.ok("list_tasks", {{"workflow_id", workflow}}), "alpha");
  // The first turn waits for a file the test writes, so the follow-up is
  // surely queued while it runs.
  const fs::path gate = instance.root.path() / "gate";
  const json args =
      json::array({"/bin/sh", "-c",
                   "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then while [ ! -e '" + gate.string() +
                       "' ]; do sleep 0.02; done; fi; echo \"turn-$MISSION_TASK_ATTEMPT\""});
  const std::string attempt =
      coordinator.ok("start_task_attempt",
                     {{"task_id", alpha}, {"executor", "generic"}, {"args", args}})["attempt_id"];
  wait_attempt(coordinator, attempt, [](const json& s) { return s["state"] == "running"; });
  CHECK(coordinator.ok("follow_up", {{"attempt_id", attempt},
                                     {"mode", "send"},
                                     {"prompt", "p"}})["delivered_as"] == "message");
  CHECK(coordinator.ok("follow_up", {{"attempt_id", attempt},
                                     {"mode", "queue"},
                                     {"prompt", "q"}})["delivered_as"] == "queued");
  write_file(gate, "go\n");
  json done = wait_attempt(coordinator, attempt,
                           [](const json& s) { return s["turns"] == 2 && s["final"] == true; });
  CHECK(done["state"] == "completed");
  CHECK(coordinator.ok("tail_attempt_logs", {{"attempt_id", attempt}})["entries"].back()["text"] ==
        "turn-2");
}

TEST_CASE(
    "list_tasks answers a cursor or after_cursor past either end of the plan and the daemon goes "
    "on") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent coordinator(instance, instance.root.path(), kCoordinatorToolsets);
  const std::string workflow = make_workflow(coordinator);
  auto names = [](const json& page) {
    std::vector<std::string> out;
    for (const auto& task : page["tasks"]) out.push_back(task["name"]);
    return out;
  };
  using Names = std::vector<std::string>;

  // A cursor pages back from before its position: past the end, that is
  // the last page of the plan.
  for (const char* cursor : {"1000000", "12", "3", "999999999999999999"}) {
    INFO(cursor);
    json page = coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"cursor", cursor}});
    CHECK(names(page) == Names{"alpha", "beta"});
    CHECK(page["total"] == 2);
    CHECK_FALSE(page.contains("cursor"));
  }
  json last = coordinator.ok("list_tasks",
                             {{"workflow_id", workflow}, {"cursor", "1000000"}, {"limit", 1}});
  CHECK(names(last) == Names{"beta"});
  REQUIRE(last.contains("cursor"));
  CHECK(names(coordinator.ok("list_tasks", {{"workflow_id", workflow},
                                            {"cursor", last["cursor"]}})) == Names{"alpha"});
  // Nothing is before the first position, nor after the last.
  for (const char* cursor : {"0", "1"}) {
    INFO(cursor);
    CHECK(coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"cursor", cursor}})["tasks"]
              .empty());
  }
  for (const char* after : {"2", "3", "1000000", "999999999999999999"}) {
    INFO(after);
    json page = coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"after_cursor", after}});
    CHECK(page["tasks"].empty());
    CHECK_FALSE(page.contains("after_cursor"));
  }
  CHECK(names(coordinator.ok("list_tasks", {{"workflow_id", workflow}, {"after_cursor", "0"}})) ==
        Names{"alpha", "beta"});
  // A cursor mission did not give is refused with what to do.
  for (const char* bad : {"-1", "1e3", "9223372036854775808"}) {
    INFO(bad);
    json refused = coordinator.call("list_tasks", {{"workflow_id", workflow}, {"cursor", bad}});
    CHECK(refused["isError"] == true);
    CHECK(refused["structuredContent"]["code"] == "invalid_argument");
    CHECK(refused["structuredContent"].contains("hint"));
  }
  CHECK(process_alive(daemon.pid()));
  CHECK(names(coordinator.ok("list_tasks", {{"workflow_id", workflow}})) == Names{"alpha", "beta"});
}

TEST_CASE("a follow_up that misses a field of the form its mode chose is told which") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent coordinator(instance, instance.root.path(), kCoordinatorToolsets);
  json send = coordinator.call("follow_up", {{"attempt_id", "at-0000000000"}, {"mode", "send"}});
  REQUIRE(send["isError"] == true);
  CHECK(send["structuredContent"]["code"] == "invalid_argument");
  CHECK(send["structuredContent"]["message"] ==
        "invalid arguments for follow_up: /prompt: required when mode is 'send'");
  CHECK(send["structuredContent"]["details"]["violations"] ==
        json::array({{{"path", "/prompt"}, {"message", "required when mode is 'send'"}}}));
  json cancel = coordinator.call(
      "follow_up", {{"attempt_id", "at-0000000000"}, {"mode", "cancel"}, {"prompt", "p"}});
  CHECK(cancel["structuredContent"]["message"] ==
        "invalid arguments for follow_up: /prompt: must be left out when mode is 'cancel'");
}
