#pragma once
// The code behind each toolset: one handler per toolset, one file each
// (signals_toolset.cpp, ...), found by the toolset name in the catalog.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::mcp {

// What a tool may touch: the store and the identity of its caller, which the
// session knows so the agent never has to say who it is.
struct ToolContext {
  store::Database& db;
  std::string execution_id;
  std::int64_t session_id = 0;
};

// Runs one validated call and returns its structured result; throws
// MissionError for a failure the agent should see as a tool error.
using ToolHandler = nlohmann::json (*)(ToolContext& context, const ToolDefinition& tool,
                                       const nlohmann::json& arguments);

// The handler of `toolset`, or nullptr if none is built in.
ToolHandler toolset_handler(std::string_view toolset);

nlohmann::json call_signal_tool(ToolContext& context, const ToolDefinition& tool,
                                const nlohmann::json& arguments);

}  // namespace mission::daemon::mcp
