#pragma once
// The planning Caller of a tool call: its changes become the same live
// events tracking publishes. Shared by the planning and control toolsets.

#include "daemon/mcp/tool_table.hpp"
#include "daemon/planning/planning_support.hpp"

namespace mission::daemon::mcp {

planning::Caller planning_caller(ToolContext& context);

}  // namespace mission::daemon::mcp
