#pragma once
// One tools/call: find the tool in the session's view, validate its arguments
// against the tool's input schema, run its toolset handler, and shape the
// CallToolResult (DESIGN.md §5).

#include <nlohmann/json.hpp>

#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/mcp/toolsets.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::mcp {

// Returns the CallToolResult: {content:[text], structuredContent, isError}.
// Failures of the tool itself, invalid arguments included, are results with
// isError true. A call that is not a valid tools/call, or names a tool this
// session does not offer, throws MissionError (a JSON-RPC error).
//
// A tool with long work returns it deferred (outcome.deferred); the caller
// runs the work off the loop and then finish_deferred. With
// context.can_defer false the work runs here, inline.
ToolOutcome call_tool(ToolContext& context, const CatalogView& view, const nlohmann::json& params);

// The loop half of a deferred call: `finish` with the work's result inside
// its own transaction, or `abandon` when the work (`work_error`) or the
// finish failed. Returns the CallToolResult.
nlohmann::json finish_deferred(ToolContext& context, DeferredWork& deferred,
                               nlohmann::json work_result, const MissionError* work_error);

// Runs a deferred call's work on this thread, blocking the loop: for the
// rare caller that cannot wait (a batch). Returns the CallToolResult.
nlohmann::json run_deferred_inline(ToolContext& context, DeferredWork& deferred);

// The CallToolResult carrying `structured` as both structuredContent and text.
nlohmann::json tool_result(const nlohmann::json& structured, bool is_error);

}  // namespace mission::daemon::mcp
