// Launched executions: `mission run` spawning real child processes, their
// output log, stdout markers into the ledger, stop, and restarts.

#include <signal.h>

#include <catch2/catch.hpp>

#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// The execution `mission run --detach` started, once it has ended.
json wait_final(const Instance& instance, const std::string& id, std::chrono::seconds limit = 20s) {
  json execution;
  eventually(
      [&] {
        execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
        const std::string state = execution.value("state", "");
        return state == "completed" || state == "failed" || state == "cancelled" || state == "lost";
      },
      limit, 20ms);
  return execution;
}

std::string detach(const Instance& instance, const std::string& script,
                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"run", "--detach"};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const char* part : {"--", "sh", "-c"}) args.push_back(part);
  args.push_back(script);
  ProcessResult result = run_mission(instance, args);
  REQUIRE(result.exit_code == 0);
  std::string id = result.out.substr(0, result.out.find('\n'));
  REQUIRE(id.rfind("ae-", 0) == 0);
  return id;
}

json signals_of(const Instance& instance, const std::string& id) {
  return json::parse(run_mission(instance, {"--json", "exec", "signals", id}).out)["observations"];
}

std::string marker(const std::string& execution, const std::string& event, const json& signal) {
  return "@agent-execution::" + json{{"version", 1},
                                     {"agentExecutionId", execution},
                                     {"eventId", event},
                                     {"signal", signal}}
                                    .dump();
}

// A shell word that prints `text` exactly (single-quoted, quotes escaped).
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST_CASE("mission run streams the agent's output and exits with its status") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult result = run_mission(
      instance, {"run", "--", "sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3"});
  CHECK(result.exit_code == 3);
  CHECK(result.out == "to-stdout\n");
  CHECK(result.err == "to-stderr\n");

  json listed = json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["state"] == "failed");
  CHECK(listed[0]["exitCode"] == 3);
  CHECK(listed[0]["kind"] == "launched");
  CHECK(listed[0]["command"] == json({"sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3"}));

  json logs = json::parse(run_mission(instance, {"--json", "exec", "logs", listed[0]["id"]}).out);
  REQUIRE(logs["lines"].size() == 2);
  CHECK(logs["lines"][0]["text"] == "to-stdout");
  CHECK(logs["lines"][1]["stream"] == "stderr");
}

TEST_CASE("the agent gets its execution id, the socket, --env and --cwd") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult result = run_mission(instance, {"run", "--env", "GREETING=hi there", "--cwd",
                                                instance.root.path().string(), "--", "sh", "-c",
                                                "echo "
                                                "\"$MISSION_AGENT_EXECUTION_ID|$MISSION_SOCKET|$"
                                                "GREETING|$(pwd)|${MISSION_MCP_TOKEN:-none}\""});
  REQUIRE(result.exit_code == 0);
  std::string id =
      json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"][0]["id"];
  CHECK(result.out == id + "|" + instance.socket().string() + "|hi there|" +
                          fs::canonical(instance.root.path()).string() + "|none\n");
}

TEST_CASE("everything after -- is the agent's, whatever option comes just before it") {
  Instance instance;
  DaemonProcess daemon(instance);
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{"--env", "A=1"},
        std::vector<std::string>{"--env", "A=1", "--env", "B=2"},
        std::vector<std::string>{"--env", "A=1", "--delivery", "mcp-tool", "--toolsets",
                                 "signals,tracking"}}) {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), options.begin(), options.end());
    for (const char* word : {"--", "sh", "-c", "echo \"A=$A\" -c"}) args.push_back(word);
    ProcessResult result = run_mission(instance, args);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(result.out == "A=1 -c\n");
  }
}

TEST_CASE("a command that cannot start fails the launch with a clear error") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult result = run_mission(instance, {"run", "--", "no-such-agent-binary-x"});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("no-such-agent-binary-x") != std::string::npos);
  json listed = json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["state"] == "failed");
}

TEST_CASE("stdout markers become signals, claims are promoted by a clean exit") {
  Instance instance;
  DaemonProcess daemon(instance);
  // The script learns its id from the environment, as agents do.
  std::string script =
      std::string(kMarkerShellFunction) +
      "m p1 '{\"type\":\"progress\",\"summary\":\"step one\"}';"
      "m q1 '{\"type\":\"needs_input\",\"question\":\"go?\",\"choices\":[\"yes\"]}';"
      "sleep 0.3;"
      "m p1 '{\"type\":\"progress\",\"summary\":\"step one\"}';"
      "m c1 '{\"type\":\"completed_claim\",\"summary\":\"done\"}';"
      "echo '@agent-execution::{\"version\":1}' >&2";
  std::string id = detach(instance, script);
  json execution = wait_final(instance, id);
  CHECK(execution["state"] == "completed");
  CHECK(execution["exitCode"] == 0);
  json observations = signals_of(instance, id);
  REQUIRE(observations.size() == 3);  // the resent p1 is a duplicate; stderr is ignored
  CHECK(observations[0]["kind"] == "progress");
  CHECK(observations[0]["origin"] == "stdout-marker");
  CHECK(observations[0]["status"] == "accepted");
  CHECK(observations[1]["kind"] == "needs_input");
  CHECK(observations[2]["kind"] == "completed_claim");
  CHECK(observations[2]["status"] == "promoted");
}

TEST_CASE("malformed, oversized and foreign markers are diagnostics that change nothing") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string foreign = marker("ae-someoneelse", "x1", {{"type", "progress"}, {"summary", "s"}});
  std::string script =
      "id=$MISSION_AGENT_EXECUTION_ID;"
      "echo '@agent-execution::{not json';"
      "printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"e1\",\"signal\":"
      "{\"type\":\"progress\",\"summary\":\"s\"},\"extra\":1}\\n' \"$id\";"
      "printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"e2\",\"signal\":"
      "{\"type\":\"blocked\"}}\\n' \"$id\";"
      "echo " +
      shell_quoted(foreign) +
      ";"
      "printf '@agent-execution::%070000d\\n' 0;"
      "exit 0";
  std::string id = detach(instance, script);
  json execution = wait_final(instance, id);
  CHECK(execution["state"] == "completed");
  json observations = signals_of(instance, id);
  REQUIRE(observations.size() == 5);
  for (const auto& observation : observations) {
    INFO(observation.dump());
    CHECK(observation["kind"] == "diagnostic");
    CHECK(observation["status"] == "rejected");
  }
  CHECK(observations[0]["reason"].get<std::string>().find("not valid JSON") != std::string::npos);
  CHECK(observations[3]["reason"].get<std::string>().find("another execution") !=
        std::string::npos);
  CHECK(observations[4]["reason"].get<std::string>().find("exceeds") != std::string::npos);
}

TEST_CASE("markers split across writes, with CRLF, colour or junk around them, still count") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string script =
      "id=$MISSION_AGENT_EXECUTION_ID;"
      // Split in the middle of the prefix, with a pause between the writes.
      "printf '@agent-exec'; sleep 0.2; printf "
      "'ution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"s1\",\"signal\":{\"type\":"
      "\"progress\",\"summary\":\"split\"}}\\n' \"$id\";"
      "printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"s2\",\"signal\":"
      "{\"type\":\"message\",\"text\":\"crlf\"}}\\r\\n' \"$id\";"
      "printf "
      "'\\033[32m@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"s3\","
      "\"signal\":{\"type\":\"message\",\"text\":\"colour\"}}\\033[0m\\n' \"$id\";"
      "head -c 3000000 /dev/zero | tr '\\0' 'x'; echo;"  // a 3 MB line without a marker
      "printf 'junk\\001\\377\\n';"
      "printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"s4\",\"signal\":"
      "{\"type\":\"message\",\"text\":\"after junk\"}}' \"$id\"";  // no newline, then exit
  std::string id = detach(instance, script);
  json execution = wait_final(instance, id);
  CHECK(execution["state"] == "completed");
  json observations = signals_of(instance, id);
  std::vector<std::string> events;
  for (const auto& observation : observations) {
    CHECK(observation["status"] != "rejected");
    events.push_back(observation["eventId"]);
  }
  CHECK(events == std::vector<std::string>{"s1", "s2", "s3", "s4"});
}

TEST_CASE("a stdout-marker agent's output is line-indexed and pages back and forward") {
  Instance instance;
  DaemonProcess daemon(instance);
  // 10 MB of output: 100,000 lines of 99 characters.
  std::string id = detach(instance, "head -c 9900000 /dev/zero | tr '\\0' 'a' | fold -w 99");
  CHECK(wait_final(instance, id)["state"] == "completed");
  json newest =
      json::parse(run_mission(instance, {"--json", "exec", "logs", id, "--limit", "100"}).out);
  CHECK(newest["lastLine"] == 100000);
  REQUIRE(newest["lines"].size() == 100);
  CHECK(newest["lines"][0]["n"] == 99901);
  CHECK(newest["nextCursor"] == 99901);
  json older = json::parse(
      run_mission(instance, {"--json", "exec", "logs", id, "--cursor", "99901", "--limit", "10"})
          .out);
  CHECK(older["lines"][0]["n"] == 99891);
  json after =
      json::parse(run_mission(instance, {"--json", "exec", "logs", id, "--after", "99998"}).out);
  CHECK(after["lines"].size() == 2);
  ProcessResult mixed =
      run_mission(instance, {"--json", "exec", "logs", id, "--after", "1", "--cursor", "5"});
  CHECK(mixed.exit_code == 1);
  CHECK(json::parse(mixed.out)["error"]["code"] == "mixed_pagination");
}

TEST_CASE("exec stop ends an agent that ignores SIGTERM with SIGKILL after the grace period") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string id = detach(instance, "trap '' TERM; echo ready; while :; do sleep 1; done");
  // Stopped only once the trap is set, which it says.
  CHECK(eventually([&] {
    return run_mission(instance, {"exec", "logs", id}).out.find("ready") != std::string::npos;
  }));
  ProcessResult stop = run_mission(instance, {"exec", "stop", id});
  CHECK(stop.exit_code == 0);
  json execution = wait_final(instance, id, 15s);
  CHECK(execution["state"] == "cancelled");
  CHECK(execution["exitSignal"] == SIGKILL);
}

TEST_CASE("a process that dies mid-line keeps its last partial line") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string id = detach(instance, "printf 'complete\\npartial'; kill -9 $$");
  json execution = wait_final(instance, id);
  CHECK(execution["state"] == "failed");
  CHECK(execution["exitSignal"] == SIGKILL);
  json logs = json::parse(run_mission(instance, {"--json", "exec", "logs", id}).out);
  REQUIRE(logs["lines"].size() == 2);
  CHECK(logs["lines"][1]["text"] == "partial");
}

TEST_CASE("a prompt a running agent printed without a newline shows at the end of exec logs") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string id = detach(
      instance, "echo 'about to ask'; printf 'Proceed? [y/N] '; read answer; echo \"got $answer\"",
      {"--stdin-answers"});
  json logs;
  REQUIRE(eventually([&] {
    logs = json::parse(run_mission(instance, {"--json", "exec", "logs", id}).out);
    return logs.contains("partialLines");
  }));
  CHECK(logs["partialLines"] ==
        json::parse(R"([{"stream": "stdout", "text": "Proceed? [y/N] "}])"));
  REQUIRE(logs["lines"].size() == 1);  // the prompt is no numbered line until it ends
  CHECK(run_mission(instance, {"exec", "logs", id}).out == "about to ask\nProceed? [y/N] \n");
  // An older page does not end the log, so it has no partial lines.
  json older =
      json::parse(run_mission(instance, {"--json", "exec", "logs", "--cursor", "1", id}).out);
  CHECK_FALSE(older.contains("partialLines"));

  REQUIRE(run_mission(instance, {"send", id, "yes"}).exit_code == 0);
  json execution = wait_final(instance, id);
  CHECK(execution["state"] == "completed");
  logs = json::parse(run_mission(instance, {"--json", "exec", "logs", id}).out);
  CHECK_FALSE(logs.contains("partialLines"));
  REQUIRE(logs["lines"].size() == 2);
  CHECK(logs["lines"][1]["text"] == "Proceed? [y/N] got yes");
}

TEST_CASE("after a daemon restart a launched execution it no longer owns is lost") {
  Instance instance;
  auto daemon = std::make_unique<DaemonProcess>(instance);
  std::string id = detach(instance, "sleep 30");
  daemon->signal(SIGTERM);
  REQUIRE(daemon->wait_exit() == 0);
  daemon = std::make_unique<DaemonProcess>(instance);
  json execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
  CHECK(execution["state"] == "lost");
  CHECK(execution.contains("endedAt"));
  if (execution.contains("pid")) ::kill(-execution["pid"].get<int>(), SIGKILL);
}

TEST_CASE("a launched agent that keeps writing outlives a daemon stop, not killed by SIGPIPE") {
  Instance instance;
  auto daemon = std::make_unique<DaemonProcess>(instance);
  fs::path done = instance.root.path() / "done";
  // Writes a line to stdout and stderr every 50 ms for a second, then
  // leaves a file behind, in its working directory (the only place a
  // confined agent writes).
  std::string id =
      detach(instance,
             "for i in $(seq 20); do echo out $i; echo err $i >&2; sleep 0.05; done; touch " +
                 done.string(),
             {"--cwd", instance.root.path().string()});
  // The daemon stops while the agent writes.
  CHECK(eventually([&] {
    return run_mission(instance, {"exec", "logs", id}).out.find("out 2") != std::string::npos;
  }));
  daemon->signal(SIGTERM);
  REQUIRE(daemon->wait_exit() == 0);
  CHECK(eventually([&] { return fs::exists(done); }));
}

TEST_CASE("exec instructions tell a marker agent its id, the format and every signal") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string id = detach(instance, "true");
  ProcessResult result = run_mission(instance, {"exec", "instructions", id});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("@agent-execution::{\"version\":1,\"agentExecutionId\":\"" + id) !=
        std::string::npos);
  for (const char* signal :
       {"progress: summary, detail?", "needs_input: question, choices", "blocked: reason",
        "ready_for_verification", "completed_claim", "failed_claim", "message: text"}) {
    CHECK(result.out.find(signal) != std::string::npos);
  }
}

TEST_CASE("exec show --follow and watch print an execution's events until it ends") {
  Instance instance;
  DaemonProcess daemon(instance);
  auto watch_argv = std::vector<std::string>{MISSION_PATH, "--json", "watch"};
  std::string script =
      "sleep 0.5; printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"q\",\"signal\":{"
      "\"type\":\"needs_input\",\"question\":\"Keep it?\",\"choices\":[\"yes\",\"no\"]}}\\n' "
      "\"$MISSION_AGENT_EXECUTION_ID\"; sleep 2; exit 4";
  std::string id = detach(instance, script);
  // Started before the question, follow prints it as an event; started
  // after it (a loaded machine), as what the execution is waiting on.
  ProcessResult follow = run_mission(instance, {"exec", "show", id, "--follow"});
  CHECK(follow.exit_code == 0);
  CHECK(follow.out.find("asks: Keep it? [yes/no]") != std::string::npos);
  CHECK(follow.out.find("awaiting_input") != std::string::npos);
  CHECK(follow.out.find("failed (exit 4)") != std::string::npos);

  ProcessResult json_follow = run_mission(instance, {"--json", "exec", "show", id, "--follow"});
  REQUIRE(json_follow.exit_code == 0);  // already final: one line, then done
  CHECK(json::parse(json_follow.out)["state"] == "failed");
}

TEST_CASE("exec show says what a waiting execution waits on") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string script =
      "printf '%s\\n' " +
      shell_quoted(
          R"(@agent-execution::{"version":1,"agentExecutionId":"ID","eventId":"q","signal":{"type":"needs_input","question":"Keep it?","choices":["yes","no"]}})") +
      " | sed \"s/ID/$MISSION_AGENT_EXECUTION_ID/\"; "
      "printf '%s\\n' " +
      shell_quoted(
          R"(@agent-execution::{"version":1,"agentExecutionId":"ID","eventId":"b","signal":{"type":"blocked","reason":"no network"}})") +
      " | sed \"s/ID/$MISSION_AGENT_EXECUTION_ID/\"; sleep 30";
  std::string id = detach(instance, script);
  json execution = json::object();
  REQUIRE(eventually([&] {
    execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
    return execution.value("state", "") == "blocked";
  }));
  CHECK(execution["waitingOn"]["kind"] == "blocked");  // the newest of the two
  CHECK(execution["waitingOn"]["payload"]["reason"] == "no network");
  ProcessResult shown = run_mission(instance, {"exec", "show", id});
  CHECK(shown.out.find("waiting on    blocked: no network") != std::string::npos);

  REQUIRE(run_mission(instance, {"exec", "stop", "--force", id}).exit_code == 0);
  execution = wait_final(instance, id);
  CHECK(execution["state"] == "cancelled");
  CHECK_FALSE(execution.contains("waitingOn"));
}

TEST_CASE("an mcp-tool execution ignores stdout markers: its MCP calls are the signals") {
  Instance instance;
  DaemonProcess daemon(instance);
  std::string script =
      "printf "
      "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"same\","
      "\"signal\":{\"type\":\"progress\",\"summary\":\"by marker\"}}\\n' "
      "\"$MISSION_AGENT_EXECUTION_ID\";"
      "printf "
      "'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\"}}}\\n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/"
      "call\",\"params\":{\"name\":\"progress\",\"arguments\":{\"summary\":\"by "
      "mcp\",\"eventId\":\"same\"}}}\\n"
      "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/"
      "call\",\"params\":{\"name\":\"progress\",\"arguments\":{\"summary\":\"by "
      "mcp\",\"eventId\":\"same\"}}}\\n'"
      " | " MISSION_PATH
      " mcp connect --agent-execution \"$MISSION_AGENT_EXECUTION_ID\" >/dev/null";
  std::string id = detach(instance, script, {"--delivery", "mcp-tool"});
  CHECK(wait_final(instance, id)["state"] == "completed");
  json observations = signals_of(instance, id);
  REQUIRE(observations.size() == 1);  // the marker was output, not a signal; the resend a duplicate
  CHECK(observations[0]["origin"] == "mcp-tool");
  CHECK(observations[0]["payload"]["summary"] == "by mcp");
  json execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
  CHECK(execution["mcpSessions"][0]["calls"] == 2);
}

TEST_CASE("Ctrl-C on mission run stops the execution and exits 130") {
  Instance instance;
  DaemonProcess daemon(instance);
  StdioProcess run({MISSION_PATH, "run", "--", "sh", "-c", "echo started; exec sleep 30"},
                   instance.env());
  auto first = run.read_raw_line();
  REQUIRE(first == "started");
  ::kill(run.pid(), SIGINT);
  CHECK(run.wait_exit(15s) == 130);
  CHECK(run.stderr_text().find("stopping ae-") != std::string::npos);
  json execution =
      json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"][0];
  CHECK(execution["state"] == "cancelled");
  CHECK(execution["exitSignal"] == SIGTERM);
}

TEST_CASE("watch starts from what is running and comes back after a daemon restart") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  daemon.emplace(instance);
  REQUIRE(daemon->ready());
  std::string running = detach(instance, "sleep 30", {"--name", "long-one"});
  std::vector<std::string> argv{MISSION_PATH, "--json", "watch"};
  StdioProcess watch(argv, instance.env());
  // What already runs comes first, as an execution.current event.
  json current = *watch.read();
  CHECK(current["type"] == "execution.current");
  CHECK(current["agentExecutionId"] == running);
  CHECK(current["execution"]["agentName"] == "long-one");

  // The daemon goes away and another takes its place: watch subscribes
  // again and shows the state anew (the execution is lost by then).
  daemon->signal(SIGKILL);
  daemon->wait_exit();
  daemon.reset();
  daemon.emplace(instance);
  REQUIRE(daemon->ready());
  // Long enough that watch sees it whenever it reconnects: as an event, or
  // in the state it prints on reconnecting.
  std::string after = detach(instance, "sleep 30");
  bool saw_new = false;
  for (int i = 0; i < 20 && !saw_new; ++i) {
    auto event = watch.read(10s);
    REQUIRE(event);
    saw_new = event->value("agentExecutionId", "") == after;
  }
  CHECK(saw_new);
  CHECK(watch.stderr_text().find("lost the daemon; watching for it to come back") !=
        std::string::npos);
  run_mission(instance, {"exec", "stop", "--force", after});
}
