#pragma once
// The gate every tools/call passes: find the tool in the session's view,
// refuse an ambiguous target, validate the arguments against the tool's
// input schema, honour request_id, decode and run the tool's row (in a
// savepoint when it writes), and shape the CallToolResult (DESIGN.md §5).

#include <nlohmann/json.hpp>

#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::mcp {

// Returns the CallToolResult {content:[text], structuredContent, isError},
// or, for a tool with long work, that work (outcome.deferred): the caller
// runs it off the loop and then finish_deferred. Failures of the tool
// itself, invalid arguments included, are results with isError true. A
// call that is not a valid tools/call, or names a tool this session does
// not offer, throws MissionError (a JSON-RPC error).
ToolOutcome call_tool(ToolContext& context, const CatalogView& view, const nlohmann::json& params);

// The loop half of a deferred call: `finish` inside its own transaction,
// or `abandon` when the work (`work_error`) or the finish failed. Returns
// the CallToolResult.
nlohmann::json finish_deferred(ToolContext& context, DeferredWork& deferred,
                               const MissionError* work_error);

// Runs a deferred call's work on this thread, blocking the loop: for the
// rare caller that cannot wait (a batch). Returns the CallToolResult.
nlohmann::json run_deferred_inline(ToolContext& context, DeferredWork& deferred);

// The CallToolResult carrying `structured` as both structuredContent and text.
nlohmann::json tool_result(const nlohmann::json& structured, bool is_error);

}  // namespace mission::daemon::mcp
