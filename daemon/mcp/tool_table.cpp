#include "daemon/mcp/tool_table.hpp"

namespace mission::daemon::mcp {

std::span<const ToolsetTable> toolset_tables() {
  static const ToolsetTable kTables[] = {
      {Toolset::signals, signal_tools()},
      {Toolset::tracking, tracking_tools()},
      {Toolset::legacy, legacy_tools()},
      {Toolset::inspect, inspect_tools()},
      {Toolset::planning, planning_tools()},
      {Toolset::templates, template_tools()},
      {Toolset::coordination, coordination_tools()},
      {Toolset::workspaces, workspace_tools()},
      {Toolset::control, control_tools()},
  };
  return kTables;
}

const ToolRow* find_tool_row(std::string_view name, Toolset* toolset) {
  for (const ToolsetTable& table : toolset_tables()) {
    for (const ToolRow& row : table.tools) {
      if (row.name != name) continue;
      if (toolset != nullptr) *toolset = table.toolset;
      return &row;
    }
  }
  return nullptr;
}

}  // namespace mission::daemon::mcp
