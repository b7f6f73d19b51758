#pragma once
// mcp.attach: turns a control connection into an MCP session for one
// AgentExecution (DESIGN.md §4).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct McpAttachRequest {
  std::optional<std::string> execution_id;
  std::string token;
  std::string cwd;
  std::vector<Toolset> toolsets;
  bool toolsets_given = false;
};
void from_json(const nlohmann::json& j, McpAttachRequest& request);

nlohmann::json handle_mcp_attach(MethodContext& context, const McpAttachRequest& request);

}  // namespace mission::daemon
