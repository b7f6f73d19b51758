#pragma once
// One tools/call: find the tool in the session's view, validate its arguments
// against the tool's input schema, run its toolset handler, and shape the
// CallToolResult (DESIGN.md §5).

#include <nlohmann/json.hpp>

#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/mcp/toolsets.hpp"

namespace mission::daemon::mcp {

// Returns the CallToolResult: {content:[text], structuredContent, isError}.
// Failures of the tool itself, invalid arguments included, are results with
// isError true. A call that is not a valid tools/call, or names a tool this
// session does not offer, throws MissionError (a JSON-RPC error).
nlohmann::json call_tool(ToolContext& context, const CatalogView& view,
                         const nlohmann::json& params);

// The CallToolResult carrying `structured` as both structuredContent and text.
nlohmann::json tool_result(const nlohmann::json& structured, bool is_error);

}  // namespace mission::daemon::mcp
