#pragma once
// What to tell a stdout-marker agent: the marker format, its execution id,
// and every signal with its fields, rendered from the descriptor and the
// signal schemas (the same ones the daemon validates with).

#include <nlohmann/json.hpp>
#include <string>

namespace mission::daemon::execution {

// For an mcp-tool execution, says to use the MCP tools instead.
std::string marker_instructions(const std::string& execution_id, const nlohmann::json& descriptor);

}  // namespace mission::daemon::execution
