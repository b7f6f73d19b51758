#pragma once
// The bridge every MCP-capable adapter provisions: which `mission` binary it
// runs, and its server entry for one execution or for a pasted config.

#include <filesystem>
#include <string>

#include "daemon/adapters/adapter.hpp"

namespace mission::daemon::adapters {

// The `mission` next to this missiond (they are installed, and built, side
// by side). Throws MissionError(internal) naming where it looked.
std::string mission_binary();

// `mission mcp connect [--agent-execution ID]` with the daemon's socket;
// without an id the bridge makes an attached execution per session.
BridgeEntry bridge_entry(const std::string& mission, const std::filesystem::path& socket,
                         const std::string& execution_id);

}  // namespace mission::daemon::adapters
