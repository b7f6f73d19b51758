#include "daemon/mcp/toolsets.hpp"

namespace mission::daemon::mcp {

ToolHandler toolset_handler(std::string_view toolset) {
  struct Entry {
    std::string_view toolset;
    ToolHandler handler;
  };
  static constexpr Entry kHandlers[] = {
      {"signals", call_signal_tool},
      {"tracking", call_tracking_tool},
      {"legacy", call_tracking_tool},
  };
  for (const Entry& entry : kHandlers) {
    if (entry.toolset == toolset) return entry.handler;
  }
  return nullptr;
}

}  // namespace mission::daemon::mcp
