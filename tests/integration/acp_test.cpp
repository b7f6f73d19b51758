// Agents driven over the Agent Client Protocol, through the real CLI and
// daemon: a scripted ACP agent (integration/agents/acp_agent.mjs, run by
// node) gets initialize, session/new with mission's bridge in mcpServers
// and the prompt; its permission request is listed in `mission inbox` as
// reported, `mission answer --choice N` sends the option's id, and the
// turn's end_turn completes the execution. Lines it should not write are
// bounded and recorded as diagnostics.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

std::string launch_acp(const Instance& instance, const std::string& mode,
                       const std::string& prompt) {
  ProcessResult run = run_mission(
      instance, {"run", "--detach", "--sandbox", "off", "--adapter", "acp", "--prompt", prompt,
                 "--cwd", instance.root.path().string(), "--", "node", MISSION_ACP_AGENT, mode});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return run.out.substr(0, run.out.find('\n'));
}

json show(const Instance& instance, const std::string& id) {
  return json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
}

bool final_state(const Instance& instance, const std::string& id, const std::string& state) {
  return show(instance, id).value("state", "") == state;
}

}  // namespace

TEST_CASE("an ACP agent's permission request is answered from the inbox and its turn completes") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::string id = launch_acp(instance, "permission", "Make the file named made.");

  json listed;
  REQUIRE(eventually([&] {
    ProcessResult inbox = run_mission(instance, {"--json", "inbox"});
    listed = json::parse(inbox.out);
    return !listed.value("prompts", json::array()).empty();
  }));
  const json prompt = listed.at("prompts").at(0);
  CHECK(prompt.at("agentExecutionId") == id);
  CHECK(prompt.at("detected") == false);
  CHECK(prompt.at("question") == "touch made");
  CHECK(prompt.at("options") == json::array({"Allow once", "Reject"}));
  ProcessResult text = run_mission(instance, {"inbox"});
  CHECK(text.out.find(id + " awaits permission (reported by the agent): touch made") !=
        std::string::npos);
  CHECK(show(instance, id).at("awaitingPermission").at("detected") == false);

  // The session was opened in its cwd, with mission's bridge for it.
  const json session = json::parse(read_file(instance.root.path() / "session.json"));
  CHECK(session.at("cwd") == instance.root.path().string());
  const json server = session.at("mcpServers").at(0);
  CHECK(server.at("name") == "mission");
  CHECK(server.at("args") == json::array({"mcp", "connect", "--agent-execution", id}));
  CHECK(server.at("env").dump().find("MISSION_MCP_TOKEN") != std::string::npos);
  CHECK(read_file(instance.root.path() / "prompt.txt") == "Make the file named made.");

  ProcessResult beyond = run_mission(instance, {"answer", id, "--choice", "3"});
  CHECK(beyond.exit_code != 0);
  CHECK(beyond.err.find("between 1 and 2") != std::string::npos);
  ProcessResult answered = run_mission(instance, {"answer", id, "--choice", "1"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);

  REQUIRE(eventually([&] { return final_state(instance, id, "completed"); }));
  CHECK(read_file(instance.root.path() / "chosen.txt") == "allow-once");
  CHECK(std::filesystem::exists(instance.root.path() / "made"));
  CHECK(json::parse(run_mission(instance, {"--json", "inbox"}).out)
            .value("prompts", json::array())
            .empty());

  // Its updates are on the record and in its log: the message chunks as
  // one message, the tool call with its kind, status and place.
  ProcessResult signals = run_mission(instance, {"--json", "exec", "signals", id});
  CHECK(signals.out.find("I will make a file.") != std::string::npos);
  CHECK(signals.out.find("\"tool_call\"") != std::string::npos);
  CHECK(signals.out.find("\"execute\"") != std::string::npos);
  CHECK(signals.out.find("\"permission_answer\"") != std::string::npos);
  CHECK(signals.out.find("\"permission_prompt_cleared\"") != std::string::npos);
  ProcessResult logs = run_mission(instance, {"exec", "logs", id});
  CHECK(logs.out.find("I will make a file.") != std::string::npos);
  CHECK(logs.out.find("execute(touch made)") != std::string::npos);
  CHECK(logs.out.find("end_turn") != std::string::npos);
}

TEST_CASE("an ACP agent's hostile lines are bounded and reported, and its turn goes on") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::string id = launch_acp(instance, "hostile", "Say done.");
  REQUIRE(eventually([&] { return final_state(instance, id, "completed"); }));
  ProcessResult signals = run_mission(instance, {"--json", "exec", "signals", id});
  CHECK(signals.out.find("longer than 4194304 bytes") != std::string::npos);
  CHECK(signals.out.find("the line is not JSON") != std::string::npos);
  CHECK(signals.out.find("a response to no request of mission's (id 999)") != std::string::npos);
  ProcessResult logs = run_mission(instance, {"exec", "logs", id});
  CHECK(logs.out.find("done") != std::string::npos);
}

TEST_CASE("an ACP agent that answers its prompt with an error fails with the reason") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::string id = launch_acp(instance, "error", "Anything.");
  REQUIRE(eventually([&] { return final_state(instance, id, "failed"); }));
  ProcessResult logs = run_mission(instance, {"exec", "logs", id});
  CHECK(logs.out.find("the model is unreachable") != std::string::npos);
}

TEST_CASE("mission run refuses a prompt option for an adapter that takes its prompt after --") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  ProcessResult run = run_mission(instance, {"run", "--detach", "--prompt", "hi", "--", "true"});
  CHECK(run.exit_code != 0);
  CHECK(run.err.find("--prompt is for agents driven over ACP") != std::string::npos);
  ProcessResult none =
      run_mission(instance, {"run", "--detach", "--adapter", "acp", "--", "node", "x.mjs"});
  CHECK(none.exit_code != 0);
  CHECK(none.err.find("needs a prompt") != std::string::npos);
}
