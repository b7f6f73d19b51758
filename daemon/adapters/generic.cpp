// Any command: the words after -- are the whole argv, nothing is added.
// stdout-marker: the agent prints markers (its id is in
// MISSION_AGENT_EXECUTION_ID). mcp-tool: through the environment only, the
// agent runs `mission mcp connect --agent-execution "$MISSION_AGENT_EXECUTION_ID"`
// with the MISSION_MCP_TOKEN and MISSION_SOCKET it was given. With
// --stdin-answers the command reads answers and messages as stdin lines.

#include <nlohmann/json.hpp>

#include "daemon/adapters/adapter.hpp"
#include "shared/error_code.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::stdout_marker, Delivery::mcp_tool};

LaunchPlan prepare(const LaunchRequest& request) {
  if (request.arguments.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the generic adapter needs a command",
                       "give the agent's command after --: mission run -- CMD ARGS...");
  }
  return {request.arguments, {}, {}, LaunchFiles()};
}

// The stdio server entry most MCP clients take.
ManualConfig manual(const BridgeEntry& bridge) {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const auto& [name, value] : bridge_env(bridge, "${MISSION_MCP_TOKEN}")) env[name] = value;
  nlohmann::ordered_json server = {
      {"command", bridge.command}, {"args", bridge.args}, {"env", env}};
  return {"json", "the stdio server entry of your MCP client's config", server.dump(2) + "\n"};
}

}  // namespace

extern const AgentAdapter kGenericAdapter;
const AgentAdapter kGenericAdapter = {
    "generic",
    "",
    {kDeliveries, Delivery::stdout_marker, Delivery::stdout_marker, {false, true, false}, true},
    prepare,
    manual,
    nullptr,
};

}  // namespace mission::daemon::adapters
