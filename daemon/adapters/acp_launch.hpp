#pragma once
// What every agent driven over the Agent Client Protocol shares at launch
// (acp, claude-code-acp, codex-acp): it is never put on a terminal (its
// stdio is the protocol), mission's MCP server reaches it in session/new's
// mcpServers rather than a config file, and its token never goes through
// its environment.

#include <string>
#include <vector>

#include "daemon/adapters/adapter.hpp"

namespace mission::daemon::adapters {

// A plan running `argv` then the user's words; throws invalid_argument
// for a launch on a terminal.
LaunchPlan acp_launch_plan(const LaunchRequest& request, std::vector<std::string> argv);

// The output format of every such adapter: kAcpStreamFormat.
std::string_view acp_output_format(const std::vector<std::string>& argv);

inline constexpr Delivery kAcpDeliveries[] = {Delivery::mcp_tool};

// A known CLI driven through its ACP adapter (claude-code-acp, codex-acp):
// mcp-tool delivery only, nothing to paste by hand (the bridge reaches it
// in session/new), the state folders of the CLI it runs.
constexpr AgentAdapter over_acp(std::string_view name, std::string_view binary,
                                LaunchPlan (*prepare)(const LaunchRequest&),
                                std::span<const StatePath> state_paths) {
  return {name,
          binary,
          {kAcpDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
          prepare,
          nullptr,
          nullptr,
          acp_output_format,
          state_paths};
}

}  // namespace mission::daemon::adapters
