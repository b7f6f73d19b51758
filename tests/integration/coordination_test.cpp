// Agents and messages through the real socket and real processes (ADR 17):
// an answer reaching an MCP agent blocked in message_wait, a marker agent
// on its stdin, and an agent that only notices it in its next tool result;
// one agent may not act as another; messages survive a daemon's death.

#include <signal.h>

#include <catch2/catch.hpp>
#include <thread>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

json exec_show(const Instance& instance, const std::string& id) {
  return mission_json(instance, {"exec", "show", id});
}

// Polls `mission exec show` until the execution is in `state`.
json wait_state(const Instance& instance, const std::string& id, const std::string& state,
                std::chrono::seconds limit = 20s) {
  json execution;
  if (eventually(
          [&] {
            execution = exec_show(instance, id);
            return execution.value("state", "") == state;
          },
          limit, 20ms)) {
    return execution;
  }
  FAIL("execution " << id << " never reached " << state << ": " << execution.dump());
  return execution;
}

const json kQuestion = {{"question", "Which port?"}, {"choices", {"8080", "9090"}}};

}  // namespace

TEST_CASE(
    "an answer from the shell reaches an MCP agent blocked in message_wait, and mission watch sees "
    "it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path(), "signals,coordination");
  agent.ok("needs_input", kQuestion);
  CHECK(exec_show(instance, agent.execution_id())["state"] == "awaiting_input");

  RawClient watch(instance.socket());
  watch.hello();
  watch.call("events.subscribe", {{"agentExecutionId", agent.execution_id()}});

  agent.send_call("message_wait", {{"timeout_ms", 20000}});
  CHECK(agent.silent_for(300ms));  // blocked: nothing to answer yet
  ProcessResult answered = run_mission(instance, {"answer", agent.execution_id(), "--choice", "2"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);
  CHECK(answered.out.find("9090") != std::string::npos);

  json result = agent.reply(2s);
  REQUIRE(result["isError"] == false);
  const json& wait = result["structuredContent"];
  CHECK(wait["timed_out"] == false);
  REQUIRE(wait["messages"].size() == 1);
  CHECK(wait["messages"][0]["body"] == "9090");
  CHECK(wait["messages"][0]["sender_id"] == "person");
  CHECK(wait["messages"][0]["reply_to_observation_id"].is_number_integer());
  CHECK(exec_show(instance, agent.execution_id())["state"] == "running");

  // The watcher heard the answer and the execution going back to running.
  bool heard_answer = false;
  bool heard_running = false;
  for (int i = 0; i < 10 && !(heard_answer && heard_running); ++i) {
    auto event = watch.read(2s);
    REQUIRE(event.has_value());
    const json& params = (*event)["params"];
    if (params["type"] == "message.created") heard_answer = params["message"]["body"] == "9090";
    if (params["type"] == "execution.updated")
      heard_running = heard_running || params["execution"]["state"] == "running";
  }
  CHECK(heard_answer);
  CHECK(heard_running);

  // No open question any more: a second answer is refused with a hint.
  ProcessResult again = run_mission(instance, {"answer", agent.execution_id(), "8080"});
  CHECK(again.exit_code != 0);
  CHECK(again.err.find("mission send") != std::string::npos);
}

TEST_CASE("an agent without message tools learns of an answer in its next tool result's text") {
  Instance instance;
  DaemonProcess daemon(instance);
  Agent agent(instance, instance.root.path(), "signals,tracking");
  agent.ok("needs_input", kQuestion);
  REQUIRE(run_mission(instance, {"answer", agent.execution_id(), "use 8080 and go on"}).exit_code ==
          0);
  CHECK(exec_show(instance, agent.execution_id())["unreadMessages"] == 1);

  json result = agent.call("progress", {{"summary", "carrying on"}});
  REQUIRE(result["isError"] == false);
  REQUIRE(result["content"].size() == 2);
  CHECK(json::parse(result["content"][0]["text"].get<std::string>()) ==
        result["structuredContent"]);
  const std::string notice = result["content"][1]["text"];
  CHECK(notice.find("use 8080 and go on") != std::string::npos);
  CHECK(notice.find("answering your question") != std::string::npos);
  // Delivered in full, so read: the next result is quiet.
  CHECK(agent.call("progress", {{"summary", "again"}})["content"].size() == 1);
  CHECK(exec_show(instance, agent.execution_id())["unreadMessages"] == 0);

  // With the message tools the notice only points at them, on every result while unread.
  Agent reader(instance, instance.root.path(), "signals,coordination");
  REQUIRE(run_mission(instance, {"send", reader.execution_id(), "rebase first"}).exit_code == 0);
  for (int i = 0; i < 2; ++i) {
    json seen = reader.call("progress", {{"summary", "step"}});
    REQUIRE(seen["content"].size() == 2);
    CHECK(seen["content"][1]["text"].get<std::string>().find("message_list") != std::string::npos);
  }
}

TEST_CASE("send and answer --no-enter type the text alone and the next Enter ends the line") {
  Instance instance;
  DaemonProcess daemon(instance);
  // On a terminal of the daemon's, and on a stdin pipe: the agent reads one
  // line and says what it got.
  for (const std::vector<std::string>& how :
       {std::vector<std::string>{"--tty"}, {"--stdin-answers"}}) {
    std::vector<std::string> args = {"run", "--detach"};
    args.insert(args.end(), how.begin(), how.end());
    args.insert(args.end(), {"--", "sh", "-c",
                             std::string(kMarkerShellFunction) +
                                 "m q1 '{\"type\":\"needs_input\",\"question\":\"Which "
                                 "port?\",\"choices\":[\"80\",\"8080\"]}';"
                                 "read answer; echo \"got: $answer.\""});
    ProcessResult started = run_mission(instance, args);
    INFO(how[0] << ": " << started.err);
    REQUIRE(started.exit_code == 0);
    const std::string id = started.out.substr(0, started.out.find('\n'));
    wait_state(instance, id, "awaiting_input");
    REQUIRE(run_mission(instance, {"answer", "--no-enter", id, "80"}).exit_code == 0);
    REQUIRE(run_mission(instance, {"send", "--no-enter", id, "8"}).exit_code == 0);
    REQUIRE(run_mission(instance, {"send", id, "0"}).exit_code == 0);
    wait_state(instance, id, "completed");
    ProcessResult logs = run_mission(instance, {"exec", "logs", id});
    CHECK(logs.out.find("got: 8080.") != std::string::npos);
  }
}

TEST_CASE(
    "another agent's control characters reach a terminal or stdin agent as text, a person's as "
    "keys") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent sender(instance, instance.root.path(), "signals,coordination");
  // What the agent read, in the log as it wrote it.
  auto wait_log = [&](const std::string& id, const std::string& text) {
    std::string log;
    const bool shown = eventually(
        [&] {
          log = run_mission(instance, {"exec", "logs", "--raw", id}).out;
          return log.find(text) != std::string::npos;
        },
        20s, 20ms);
    INFO("the log of " << id << ": " << log);
    REQUIRE(shown);
    return log;
  };
  // Sent as another execution does, with message_send; ^\ ^C ^Z ^U on a
  // terminal were SIGQUIT, SIGINT, SIGTSTP and the line's erasure.
  const std::vector<std::pair<std::string, std::string>> sent_and_read = {
      {"status?\x1c", "got: status?^\\."},
      {"a\x03"
       "b",
       "got: a^Cb."},
      {"c\x1a"
       "d",
       "got: c^Zd."},
      {"e\x15"
       "f",
       "got: e^Uf."},
      {"\x1b[31mred\xc2\x9b!\x7f\tx", "got: ^[[31mredM-^[!^? x."},
  };
  for (const std::string how : {"--tty", "--stdin-answers"}) {
    INFO(how);
    ProcessResult started =
        run_mission(instance, {"run", "--detach", how, "--", "sh", "-c",
                               "echo ready; while IFS= read -r line; do echo \"got: $line.\"; [ "
                               "\"$line\" = done ] && exit 0; done"});
    REQUIRE(started.exit_code == 0);
    const std::string id = started.out.substr(0, started.out.find('\n'));
    wait_log(id, "ready");
    for (const auto& [body, read] : sent_and_read) {
      INFO(read);
      sender.ok("message_send", {{"recipient_id", id}, {"message_type", "query"}, {"body", body}});
      const std::string log = wait_log(id, read);
      CHECK(log.find('\x1c') == std::string::npos);
      CHECK(exec_show(instance, id)["state"] == "running");
    }
    if (how == "--tty") {
      // A person at the shell may mean a key: ^C ends the agent.
      REQUIRE(run_mission(instance, {"send", id, "\x03"}).exit_code == 0);
      json ended = wait_state(instance, id, "failed");
      CHECK(ended["exitSignal"] == SIGINT);
    } else {
      REQUIRE(run_mission(instance, {"send", id, "raw\x01"}).exit_code == 0);
      wait_log(id, "got: raw\x01.");
      sender.ok("message_send",
                {{"recipient_id", id}, {"message_type", "query"}, {"body", "done"}});
      CHECK(wait_state(instance, id, "completed")["exitCode"] == 0);
    }
  }
}

TEST_CASE(
    "a marker agent launched with --stdin-answers reads the answer on its stdin, others keep "
    "/dev/null") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string script =
      std::string(kMarkerShellFunction) +
      "m q1 '{\"type\":\"needs_input\",\"question\":\"Which "
      "port?\",\"choices\":[\"8080\",\"9090\"]}';"
      "read answer;"
      "m p1 \"{\\\"type\\\":\\\"progress\\\",\\\"summary\\\":\\\"got $answer\\\"}\";"
      "read followup;"
      "m c1 \"{\\\"type\\\":\\\"completed_claim\\\",\\\"summary\\\":\\\"then $followup\\\"}\"";
  ProcessResult started =
      run_mission(instance, {"run", "--detach", "--stdin-answers", "--", "sh", "-c", script});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  const std::string id = started.out.substr(0, started.out.find('\n'));
  wait_state(instance, id, "awaiting_input");
  REQUIRE(run_mission(instance, {"answer", id, "--choice", "1"}).exit_code == 0);
  REQUIRE(run_mission(instance, {"send", id, "ship it"}).exit_code == 0);
  json done = wait_state(instance, id, "completed");
  CHECK(done["unreadMessages"] == 0);  // on its stdin is read
  json observations = mission_json(instance, {"exec", "signals", id})["observations"];
  REQUIRE(observations.size() == 3);
  CHECK(observations[1]["payload"]["summary"] == "got 8080");
  CHECK(observations[2]["payload"]["summary"] == "then ship it");

  // Without the option stdin is /dev/null: a read ends at once.
  ProcessResult plain = run_mission(
      instance, {"run", "--", "sh", "-c", "if read x; then echo open; else echo eof; fi"});
  CHECK(plain.out.find("eof") != std::string::npos);
  // Agent CLIs that would block on an open stdin refuse the option.
  ProcessResult refused =
      run_mission(instance, {"run", "--adapter", "codex", "--stdin-answers", "--", "x"});
  CHECK(refused.exit_code != 0);
  CHECK(refused.err.find("stdin") != std::string::npos);
}

TEST_CASE("no agent can act as another: cross-agent ids are forbidden with a hint") {
  Instance instance;
  DaemonProcess daemon(instance);
  Agent a(instance, instance.root.path(), "signals,coordination");
  Agent b(instance, instance.root.path(), "signals,coordination");
  Agent c(instance, instance.root.path(), "signals,coordination");
  a.ok("agent_register", {{"name", "a"}, {"runtime", "custom"}});
  b.ok("agent_register", {{"name", "b"}, {"runtime", "custom"}, {"role", "coordinator"}});
  for (const auto& [tool, arguments] : std::vector<std::pair<std::string, json>>{
           {"agent_heartbeat", {{"agent_id", b.execution_id()}}},
           {"agent_update", {{"id", b.execution_id()}, {"status", "busy"}}},
           {"agent_unregister", {{"id", b.execution_id()}}},
           {"message_list", {{"agent_id", b.execution_id()}}},
           {"message_count_unread", {{"agent_id", b.execution_id()}}},
           {"message_send",
            {{"sender_id", b.execution_id()},
             {"recipient_id", a.execution_id()},
             {"message_type", "query"},
             {"body", "x"}}}}) {
    INFO(tool);
    json result = a.call(tool, arguments);
    REQUIRE(result["isError"] == true);
    CHECK(result["structuredContent"]["code"] == "forbidden");
    CHECK(result["structuredContent"]["hint"].get<std::string>().find("leave") !=
          std::string::npos);
  }
  json sent = a.ok("message_send", {{"recipient_id", b.execution_id()},
                                    {"message_type", "query"},
                                    {"body", {{"port", 8080}}},
                                    {"priority", "high"}});
  CHECK(c.error_code("message_get", {{"id", sent["id"]}}) == "forbidden");
  CHECK(a.error_code("message_mark_read", {{"message_ids", {sent["id"]}}}) == "forbidden");
  json got = b.ok("message_get", {{"id", sent["id"]}});
  CHECK(got["body"]["port"] == 8080);
  CHECK(got["status"] == "read");
  json broadcast =
      b.ok("message_broadcast", {{"message_type", "notification"}, {"body", "stand-up"}});
  CHECK(broadcast["sent_count"] == 1);  // a; c never registered, b is the sender
  json agents = mission_json(instance, {"agents"})["agents"];
  CHECK(agents.size() == 2);
}

TEST_CASE("agents and messages survive the daemon's death") {
  Instance instance;
  std::string id;
  {
    DaemonProcess daemon(instance);
    Agent agent(instance, instance.root.path(), "signals,coordination");
    id = agent.execution_id();
    agent.ok("agent_register",
             {{"name", "durable"}, {"runtime", "custom"}, {"capabilities", {"go"}}});
    agent.ok("message_send",
             {{"recipient_id", "person"}, {"message_type", "status_update"}, {"body", "halfway"}});
    REQUIRE(run_mission(instance, {"send", id, "keep going", "--priority", "urgent"}).exit_code ==
            0);
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  json inbox = mission_json(instance, {"inbox"});
  REQUIRE(inbox["messages"].size() == 1);
  CHECK(inbox["messages"][0]["body"] == "halfway");
  json execution = exec_show(instance, id);
  CHECK(execution["agentName"] == "durable");
  CHECK(execution["unreadMessages"] == 1);
  json agents = mission_json(instance, {"agents"})["agents"];
  REQUIRE(agents.size() == 1);
  CHECK(agents[0]["capabilities"] == json::array({"go"}));
  ProcessResult shown = run_mission(instance, {"exec", "show", id});
  CHECK(shown.out.find("durable") != std::string::npos);
  CHECK(shown.out.find("1 unread") != std::string::npos);
}

// `levels` objects, each in the one before: {"k": {"k": ... 1}}.
json nested(int levels) {
  json value = 1;
  for (int i = 0; i < levels; ++i) value = json{{"k", std::move(value)}};
  return value;
}

TEST_CASE(
    "tool arguments nested past the argument depth are refused so that every reply holding them "
    "stays readable") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path(), "signals,coordination");
  // 125 levels fit a frame (128 with the envelope's three), but stored and
  // sent back deeper inside a reply they would not: `mission agents` could
  // no longer read the daemon's answer.
  json deep = agent.call("agent_register",
                         {{"name", "deep"}, {"runtime", "custom"}, {"metadata", nested(125)}});
  REQUIRE(deep["isError"] == true);
  CHECK(deep["structuredContent"]["code"] == "invalid_argument");
  CHECK(deep["structuredContent"]["details"]["limit"] == 64);
  CHECK(deep["structuredContent"]["hint"].get<std::string>().find("64") != std::string::npos);
  CHECK(agent.error_code("message_send", {{"recipient_id", "person"},
                                          {"message_type", "query"},
                                          {"body", nested(125)}}) == "invalid_argument");
  CHECK(agent.error_code("agent_register",
                         {{"name", "deep"}, {"runtime", "custom"}, {"metadata", nested(64)}}) ==
        "invalid_argument");
  // At the limit: the arguments object and 63 levels in it.
  agent.ok("agent_register", {{"name", "deep"}, {"runtime", "custom"}, {"metadata", nested(63)}});
  ProcessResult listed = run_mission(instance, {"--json", "agents"});
  INFO(listed.err);
  REQUIRE(listed.exit_code == 0);
  json agents = json::parse(listed.out)["agents"];
  REQUIRE(agents.size() == 1);
  CHECK(agents[0]["metadata"] == nested(63));
}
