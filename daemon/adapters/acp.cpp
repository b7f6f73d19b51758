// Any agent that speaks the Agent Client Protocol on its stdio
// (`mission run --adapter acp --prompt TEXT -- CMD ARGS...`): the words
// after -- are the whole argv. The daemon drives it (daemon/execution/
// acp_session.hpp): mission's MCP server reaches it in session/new's
// mcpServers, not in a config file, so its signals still arrive over
// mcp-tool; the prompt goes in session/prompt.

#include "daemon/adapters/adapter.hpp"
#include "shared/error_code.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool};

LaunchPlan prepare(const LaunchRequest& request) {
  if (request.arguments.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the acp adapter needs the agent's command",
                       "give it after --: mission run --adapter acp --prompt TEXT -- CMD ARGS...");
  }
  if (request.on_terminal) {
    throw MissionError(ErrorCode::invalid_argument,
                       "an ACP agent speaks JSON-RPC on its stdio and cannot run on a terminal",
                       "run it with --no-tty (mission exec logs shows its steps)");
  }
  // Its token reaches it in session/new, never through the environment.
  return {request.arguments, {}, {"MISSION_MCP_TOKEN"}, LaunchFiles()};
}

std::string_view output_format(const std::vector<std::string>&) {
  return kAcpStreamFormat;
}

}  // namespace

extern const AgentAdapter kAcpAdapter;
const AgentAdapter kAcpAdapter = {
    "acp",
    "",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    nullptr,
    nullptr,
    output_format,
};

}  // namespace mission::daemon::adapters
