// The MCP server as an agent's client meets it: the real bridge process
// (`mission mcp connect`) in front of a real daemon, spoken to as raw lines.

#include <signal.h>

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <thread>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// The default catalog: 7 signal tools and 8 tracking tools.
constexpr std::size_t kDefaultToolCount = 15;

const json kModernMeta = {
    {"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
    {"io.modelcontextprotocol/clientCapabilities", json::object()},
    {"io.modelcontextprotocol/clientInfo", {{"name", "modern-probe"}, {"version", "2"}}}};

struct Created {
  std::string id;
  std::string token;
};

Created create_execution(const Instance& instance, const std::string& delivery = "mcp-tool") {
  ProcessResult result =
      run_mission(instance, {"--json", "exec", "create", "--delivery", delivery, "--print-token"});
  REQUIRE(result.exit_code == 0);
  json document = json::parse(result.out);
  return {document["execution"]["id"], document.value("token", "")};
}

std::map<std::string, std::string> bridge_env(const Instance& instance, const std::string& token) {
  auto env = instance.env();
  env["MISSION_MCP_TOKEN"] = token;
  return env;
}

std::vector<std::string> bridge_argv(const std::string& id = {}) {
  std::vector<std::string> argv{MISSION_PATH, "mcp", "connect"};
  if (!id.empty()) {
    argv.push_back("--agent-execution");
    argv.push_back(id);
  }
  return argv;
}

json initialize(StdioProcess& bridge, const std::string& version,
                const json& client = {{"name", "raw-test"}, {"version", "1.0"}}) {
  json reply = bridge.request(
      1, "initialize",
      {{"protocolVersion", version}, {"capabilities", json::object()}, {"clientInfo", client}});
  REQUIRE(reply.contains("result"));
  bridge.send(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return reply["result"];
}

json call_tool(StdioProcess& bridge, int id, const std::string& name, const json& arguments) {
  json reply = bridge.request(id, "tools/call", {{"name", name}, {"arguments", arguments}});
  REQUIRE(reply.contains("result"));
  return reply["result"];
}

json show(const Instance& instance, const std::string& id) {
  ProcessResult result = run_mission(instance, {"--json", "exec", "show", id});
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

// The daemon records a detach when the bridge's socket closes, a moment
// after the bridge exits.
json show_when(const Instance& instance, const std::string& id,
               const std::function<bool(const json&)>& ready) {
  json execution;
  eventually([&] {
    execution = show(instance, id);
    return ready(execution);
  });
  return execution;
}

void set_state(const Instance& instance, const std::string& id, const std::string& state) {
  mission::store::Database db(instance.state_dir() / "mission.db");
  auto statement = db.prepare("UPDATE executions SET state = ?2 WHERE id = ?1");
  statement.bind(1, id).bind(2, state);
  statement.run();
}

}  // namespace

TEST_CASE("initialize echoes each supported version and answers others with the latest") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::pair<std::string, std::string> cases[] = {
      {"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
      {"2025-11-25", "2025-11-25"}, {"1999-01-01", "2025-11-25"}, {"2026-07-28", "2025-11-25"}};
  for (const auto& [requested, answered] : cases) {
    INFO("requested " << requested);
    StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
    json result = initialize(bridge, requested);
    CHECK(result["protocolVersion"] == answered);
    CHECK(result["serverInfo"]["name"] == "mission");
    CHECK(result["capabilities"].contains("tools"));
    CHECK(!result.value("instructions", "").empty());
    bridge.close_stdin();
    CHECK(bridge.wait_exit() == 0);
  }
}

TEST_CASE("before initialize only ping answers, and initialize opens the session once") {
  Instance instance;
  DaemonProcess daemon(instance);
  StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());

  json early = bridge.request(1, "tools/list");
  CHECK(early["error"]["code"] == -32000);
  CHECK(early["error"]["data"]["code"] == "handshake_required");
  CHECK(bridge.request(2, "ping")["result"] == json::object());

  initialize(bridge, "2025-06-18");
  json tools = bridge.request(3, "tools/list");
  CHECK(tools["result"]["tools"].size() == kDefaultToolCount);
  json again = bridge.request(4, "initialize", {{"protocolVersion", "2025-06-18"}});
  CHECK(again["error"]["code"] == -32600);
}

TEST_CASE(
    "malformed JSON, unknown methods, bad params and batches get answers and the session goes on") {
  Instance instance;
  DaemonProcess daemon(instance);
  StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
  initialize(bridge, "2025-03-26");

  bridge.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"\n");
  json parse_error = *bridge.read();
  CHECK(parse_error["error"]["code"] == -32700);
  CHECK(parse_error["id"].is_null());

  json unknown = bridge.request(6, "sampling/createMessage");
  CHECK(unknown["error"]["code"] == -32601);
  CHECK(unknown["error"]["data"]["details"]["available"].size() > 3);

  bridge.send_raw("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":[1]}\n");
  CHECK((*bridge.read())["error"]["code"] == -32602);

  bridge.send_raw("{\"id\":8,\"method\":\"ping\"}\n");  // no "jsonrpc"
  CHECK((*bridge.read())["error"]["code"] == -32600);

  // A notification of an unknown method is dropped without an answer.
  bridge.send(json{{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}});
  CHECK(bridge.silent_for(150ms));

  bridge.send_raw(
      "[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"},"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
      "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"prompts/list\"}]\n");
  json batch = *bridge.read();
  REQUIRE(batch.is_array());
  REQUIRE(batch.size() == 2);
  CHECK(batch[0]["id"] == 9);
  CHECK(batch[1]["result"]["prompts"] == json::array());

  std::string huge = "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\",\"params\":{\"pad\":\"" +
                     std::string(1024 * 1024 + 10, 'x') + "\"}}\n";
  bridge.send_raw(huge);
  json too_large = *bridge.read();
  CHECK(too_large["error"]["data"]["code"] == "payload_too_large");

  CHECK(bridge.request(12, "resources/list")["result"]["resources"] == json::array());
  CHECK(bridge.request(13, "logging/setLevel", {{"level", "warning"}})["result"] == json::object());
  CHECK(bridge.request(14, "logging/setLevel", {{"level", "loud"}})["error"]["code"] == -32602);
}

TEST_CASE("notifications/cancelled gets no answer and the session goes on") {
  Instance instance;
  DaemonProcess daemon(instance);
  StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
  initialize(bridge, "2025-11-25");
  bridge.send(json{{"jsonrpc", "2.0"},
                   {"method", "notifications/cancelled"},
                   {"params", {{"requestId", 99}, {"reason", "user pressed Esc"}}}});
  CHECK(bridge.silent_for(150ms));
  CHECK(bridge.request(2, "ping")["result"] == json::object());
}

TEST_CASE("2026-07-28: server/discover and per-request _meta serve without initialize") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));

  json discover = bridge.request(1, "server/discover", {{"_meta", kModernMeta}});
  REQUIRE(discover.contains("result"));
  CHECK(discover["result"]["resultType"] == "complete");
  CHECK(discover["result"]["supportedVersions"] ==
        json({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
  CHECK(discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mission");

  json tools = bridge.request(2, "tools/list", {{"_meta", kModernMeta}});
  CHECK(tools["result"]["resultType"] == "complete");
  CHECK(tools["result"]["ttlMs"] == 0);  // list results are cacheable in 2026-07-28
  CHECK(tools["result"]["cacheScope"] == "private");
  CHECK(tools["result"]["tools"].size() == kDefaultToolCount);
  json call = bridge.request(
      3, "tools/call",
      {{"_meta", kModernMeta}, {"name", "progress"}, {"arguments", {{"summary", "modern"}}}});
  CHECK(call["result"]["structuredContent"]["status"] == "accepted");

  json future_meta = kModernMeta;
  future_meta["io.modelcontextprotocol/protocolVersion"] = "2031-01-01";
  json unsupported = bridge.request(4, "tools/list", {{"_meta", future_meta}});
  CHECK(unsupported["error"]["code"] == -32004);
  CHECK(unsupported["error"]["data"]["requested"] == "2031-01-01");
  CHECK(unsupported["error"]["data"]["supported"][0] == "2026-07-28");

  json no_capabilities = kModernMeta;
  no_capabilities.erase("io.modelcontextprotocol/clientCapabilities");
  CHECK(bridge.request(5, "tools/list", {{"_meta", no_capabilities}})["error"]["code"] == -32602);

  json session = show(instance, execution.id)["mcpSessions"][0];
  CHECK(session["protocolVersion"] == "2026-07-28");
  CHECK(session["client"]["name"] == "modern-probe");
}

TEST_CASE("a signal is recorded once: duplicates have no second effect, also after a restart") {
  Instance instance;
  auto daemon = std::make_unique<DaemonProcess>(instance);
  Created execution = create_execution(instance);
  {
    StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
    initialize(bridge, "2025-06-18");
    json asked =
        call_tool(bridge, 2, "needs_input",
                  {{"question", "Which DB?"}, {"choices", {"a", "b"}}, {"eventId", "q-1"}});
    CHECK(asked["isError"] == false);
    CHECK(asked["structuredContent"]["status"] == "accepted");
    CHECK(asked["structuredContent"]["agentExecutionId"] == execution.id);
    CHECK(json::parse(asked["content"][0]["text"].get<std::string>()) ==
          asked["structuredContent"]);
    CHECK(show(instance, execution.id)["state"] == "awaiting_input");

    json progressed =
        call_tool(bridge, 3, "progress", {{"summary", "chose a"}, {"eventId", "p-1"}});
    CHECK(progressed["structuredContent"]["status"] == "accepted");
    CHECK(show(instance, execution.id)["state"] == "running");

    json replay =
        call_tool(bridge, 4, "needs_input",
                  {{"question", "Which DB?"}, {"choices", {"a", "b"}}, {"eventId", "q-1"}});
    CHECK(replay["structuredContent"]["status"] == "duplicate");
    CHECK(replay["structuredContent"]["observationId"] ==
          asked["structuredContent"]["observationId"]);
    CHECK(show(instance, execution.id)["state"] == "running");  // no second effect

    json claim = call_tool(bridge, 5, "completed_claim", {{"summary", "done"}});
    CHECK(claim["structuredContent"]["status"] == "recorded-only");
    CHECK(show(instance, execution.id)["state"] == "running");  // claims never finish
  }

  daemon->signal(SIGTERM);
  REQUIRE(daemon->wait_exit() == 0);
  daemon = std::make_unique<DaemonProcess>(instance);
  REQUIRE(daemon->ready());

  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
  initialize(bridge, "2025-06-18");
  json replay = call_tool(bridge, 2, "needs_input",
                          {{"question", "Which DB?"}, {"choices", {"a", "b"}}, {"eventId", "q-1"}});
  CHECK(replay["structuredContent"]["status"] == "duplicate");
  json after = show(instance, execution.id);
  CHECK(after["state"] == "running");
  CHECK(after["observations"] == 3);
  CHECK(after["mcpSessions"].size() == 2);
  CHECK(after["mcpSessions"][0]["attached"] == false);  // closed by the restart
}

TEST_CASE("invalid arguments are tool errors, unknown tools and bad calls JSON-RPC errors") {
  Instance instance;
  DaemonProcess daemon(instance);
  StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
  initialize(bridge, "2025-11-25");

  json invalid = call_tool(bridge, 2, "progress", {{"summary", "ok"}, {"colour", "red"}});
  CHECK(invalid["isError"] == true);
  // Clients check structuredContent against the published outputSchema,
  // error payloads included: it must not require what only successes carry.
  json listed = bridge.request(20, "tools/list")["result"]["tools"];
  for (const auto& tool : listed) CHECK(!tool["outputSchema"].contains("required"));
  CHECK(invalid["structuredContent"]["code"] == "invalid_argument");
  CHECK(invalid["structuredContent"]["retryable"] == false);
  CHECK(!invalid["structuredContent"]["hint"].get<std::string>().empty());
  CHECK(invalid["structuredContent"]["details"]["violations"].size() >= 1);

  json too_long = call_tool(bridge, 3, "progress", {{"summary", std::string(501, 's')}});
  CHECK(too_long["structuredContent"]["code"] == "invalid_argument");

  json unknown =
      bridge.request(4, "tools/call", {{"name", "launch_rockets"}, {"arguments", json::object()}});
  CHECK(unknown["error"]["code"] == -32601);
  CHECK(unknown["error"]["data"]["code"] == "unsupported_tool");

  CHECK(bridge.request(5, "tools/call", {{"arguments", json::object()}})["error"]["code"] ==
        -32602);
  CHECK(bridge.request(6, "tools/list", {{"cursor", "zzz"}})["error"]["code"] == -32602);
}

TEST_CASE("after a final state only message is accepted") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
  initialize(bridge, "2025-06-18");
  set_state(instance, execution.id, "completed");

  json refused = call_tool(bridge, 2, "progress", {{"summary", "more"}});
  CHECK(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "execution_final");
  json note = call_tool(bridge, 3, "message", {{"text", "follow-up note"}});
  CHECK(note["structuredContent"]["status"] == "recorded-only");
  CHECK(show(instance, execution.id)["state"] == "completed");
}

TEST_CASE("attach is refused before any MCP traffic: wrong token, unknown or final execution") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  Created marker = create_execution(instance, "stdout-marker");
  Created finished = create_execution(instance);
  set_state(instance, finished.id, "failed");

  struct Case {
    std::string id, token, says;
  };
  const Case cases[] = {
      {execution.id, std::string(64, '0'), "wrong MCP session token"},
      {execution.id, "", "MISSION_MCP_TOKEN"},
      {"ae-doesnotexist", execution.token, "does not exist"},
      {finished.id, finished.token, "is failed"},
      {marker.id, execution.token, "stdout-marker"},
  };
  for (const auto& c : cases) {
    INFO(c.says);
    StdioProcess bridge(bridge_argv(c.id), bridge_env(instance, c.token));
    REQUIRE(bridge.wait_exit() == 1);
    CHECK(bridge.read() == std::nullopt);  // nothing on stdout
    CHECK(bridge.stderr_text().find(c.says) != std::string::npos);
  }
}

TEST_CASE("with an execution id the bridge never starts a daemon: exit 3") {
  Instance instance;
  ProcessResult result = run_mission(instance, {"mcp", "connect", "--agent-execution", "ae-gone"});
  CHECK(result.exit_code == 3);
  CHECK(result.out.empty());
  CHECK(result.err.find("is gone") != std::string::npos);
  CHECK(!fs::exists(instance.socket()));
}

TEST_CASE("the bridge exits 3 with a message when the daemon goes away") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
  initialize(bridge, "2025-06-18");
  daemon.signal(SIGTERM);
  CHECK(bridge.wait_exit() == 3);
  CHECK(bridge.stderr_text().find("missiond closed the MCP session") != std::string::npos);
}

TEST_CASE("the bridge exits 3 when the daemon dies with a request unanswered") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
  initialize(bridge, "2025-06-18");
  // Stopped, the daemon cannot answer; killed, it never will.
  daemon.signal(SIGSTOP);
  bridge.send(json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/list"}});
  CHECK(bridge.silent_for(200ms));
  daemon.signal(SIGKILL);
  CHECK(bridge.wait_exit() == 3);
  CHECK(bridge.stderr_text().find("missiond") != std::string::npos);
}

TEST_CASE("closing stdin ends the session, and an attached execution ends with it") {
  Instance instance;
  DaemonProcess daemon(instance);
  // The signal each session sends last, and the state its execution ends in.
  const std::pair<std::string, std::string> cases[] = {
      {"completed_claim", "completed"}, {"failed_claim", "failed"}, {"progress", "completed"}};
  for (const auto& [signal, final_state] : cases) {
    INFO("last signal " << signal);
    StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
    initialize(bridge, "2025-06-18", {{"name", "probe"}, {"version", "9"}});
    CHECK(bridge.request(2, "tools/list")["result"]["tools"].size() == kDefaultToolCount);
    json arguments =
        signal == "failed_claim" ? json{{"reason", "tests fail"}} : json{{"summary", "done"}};
    call_tool(bridge, 3, signal, arguments);
    bridge.close_stdin();
    CHECK(bridge.wait_exit() == 0);

    ProcessResult list = run_mission(instance, {"--json", "exec", "list"});
    REQUIRE(list.exit_code == 0);
    std::string id = json::parse(list.out)["executions"][0]["id"];
    json execution =
        show_when(instance, id, [&](const json& e) { return e["state"] == final_state; });
    CHECK(execution["state"] == final_state);
    CHECK(execution["kind"] == "attached");
    CHECK(execution["cwd"] == fs::canonical(instance.root.path()).string());
    CHECK(execution.contains("endedAt"));
    json session = execution["mcpSessions"][0];
    CHECK(session["attached"] == false);
    CHECK(session["client"] == json{{"name", "probe"}, {"version", "9"}});
    CHECK(session["protocolVersion"] == "2025-06-18");
    CHECK(session["toolLists"] == 1);
    CHECK(session["calls"] == 1);
  }
}

TEST_CASE("an attached session that made no tool call leaves no execution behind") {
  Instance instance;
  DaemonProcess daemon(instance);
  {
    // What a client's discovery probe or an agent's health check does.
    StdioProcess bridge(bridge_argv(), instance.env(), instance.root.path());
    CHECK(bridge.request(1, "server/discover", {{"_meta", kModernMeta}}).contains("result"));
    CHECK(bridge.request(2, "tools/list", {{"_meta", kModernMeta}})["result"]["tools"].size() ==
          kDefaultToolCount);
    bridge.close_stdin();
    CHECK(bridge.wait_exit() == 0);
  }
  json executions;
  CHECK(eventually([&] {
    executions = json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"];
    return executions.empty();
  }));
}

TEST_CASE("exec list and show print executions with their MCP sessions") {
  Instance instance;
  DaemonProcess daemon(instance);
  Created execution = create_execution(instance);
  StdioProcess bridge(bridge_argv(execution.id), bridge_env(instance, execution.token));
  initialize(bridge, "2025-11-25", {{"name", "probe-client"}, {"version", "3.1"}});
  call_tool(bridge, 2, "progress", {{"summary", "one"}});

  json listed = json::parse(run_mission(instance, {"--json", "exec", "list"}).out);
  REQUIRE(listed["executions"].size() == 1);
  json session = listed["executions"][0]["mcpSessions"][0];
  CHECK(session["attached"] == true);
  CHECK(session["calls"] == 1);
  CHECK(listed["executions"][0].contains("token") == false);

  ProcessResult human = run_mission(instance, {"exec", "show", execution.id});
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("probe-client 3.1") != std::string::npos);
  CHECK(human.out.find(execution.token) == std::string::npos);
  ProcessResult table = run_mission(instance, {"exec", "list"});
  CHECK(table.out.find(execution.id) != std::string::npos);
  CHECK(table.out.find("probe-client") != std::string::npos);

  ProcessResult filtered =
      run_mission(instance, {"--json", "exec", "list", "--state", "completed"});
  CHECK(json::parse(filtered.out)["executions"].empty());
  ProcessResult missing = run_mission(instance, {"--json", "exec", "show", "ae-nothere"});
  CHECK(missing.exit_code == 1);
  CHECK(json::parse(missing.out)["error"]["code"] == "not_found");
}
