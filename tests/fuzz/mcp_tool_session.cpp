#include "tests/fuzz/mcp_tool_session.hpp"

#include <cstdio>
#include <cstdlib>

#include "shared/bounded_json.hpp"

namespace mission::fuzz {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "mcp tool session: %.2000s\n", what.c_str());
  __builtin_trap();
}

}  // namespace

McpToolSession::McpToolSession(DaemonFixture& daemon, const std::filesystem::path& cwd,
                               const std::vector<std::string>& toolsets)
    : connection_(daemon.connect()) {
  if (!connection_->write(kHello)) fail("the daemon closed the connection at hello");
  json hello = parse_json_or_discarded(connection_->read_line().value_or(""));
  if (!hello.contains("result")) fail("hello was refused: " + hello.dump());
  json attached = request("mcp.attach", {{"cwd", cwd.string()}, {"toolsets", toolsets}});
  if (!attached.contains("result")) fail("mcp.attach was refused: " + attached.dump());
  execution_id_ = attached.at("result").value("agentExecutionId", "");
  json initialized = request("initialize", {{"protocolVersion", "2025-06-18"},
                                            {"capabilities", json::object()},
                                            {"clientInfo", {{"name", "fuzz"}, {"version", "1"}}}});
  if (!initialized.contains("result")) fail("initialize was refused: " + initialized.dump());
  connection_->write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
}

std::vector<std::string> McpToolSession::tool_names() {
  std::vector<std::string> names;
  json params = json::object();
  for (;;) {
    json listed = request("tools/list", params);
    if (!listed.contains("result")) fail("tools/list failed: " + listed.dump());
    for (const auto& tool : listed.at("result").at("tools"))
      names.push_back(tool.at("name").get<std::string>());
    if (!listed.at("result").contains("nextCursor")) return names;
    params["cursor"] = listed.at("result").at("nextCursor");
  }
}

json McpToolSession::exchange(const std::string& frame, std::int64_t id) {
  static const bool trace = std::getenv("FUZZ_TOOLS_TRACE") != nullptr;
  if (trace) std::fprintf(stderr, "> %.2000s%s", frame.c_str(), frame.size() > 2000 ? "...\n" : "");
  if (!connection_->write(frame)) fail("the daemon closed the session's connection");
  for (;;) {
    std::optional<std::string> line = connection_->read_line();
    if (!line)
      fail("the daemon closed the session's connection; the frame was: " + frame.substr(0, 2000));
    json reply = parse_json_or_discarded(*line);
    if (!reply.is_object() || reply.value("jsonrpc", "") != "2.0")
      fail("a reply is not JSON-RPC 2.0: " + *line);
    if (!reply.contains("id")) continue;  // a notification
    if (reply.at("id") == json(id) || reply.at("id").is_null()) return reply;
    fail("a reply to another request: " + *line);
  }
}

json McpToolSession::request(const std::string& method, const json& params) {
  const std::int64_t id = next_id();
  json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  return exchange(message.dump() + "\n", id);
}

json McpToolSession::call_ok(const std::string& tool, const json& arguments) {
  json reply = request("tools/call", {{"name", tool}, {"arguments", arguments}});
  if (!reply.contains("result") || reply.at("result").value("isError", true)) {
    fail("the seed call " + tool + " failed: " + reply.dump());
  }
  return reply.at("result").at("structuredContent");
}

}  // namespace mission::fuzz
