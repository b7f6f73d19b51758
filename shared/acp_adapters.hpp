#pragma once
// The adapters whose agents the daemon drives over the Agent Client
// Protocol: their stdio carries JSON-RPC, so they never get a terminal and
// a stop cancels their turn first. Known to the CLI, which cannot read the
// daemon's adapter table; tests/unit/daemon/adapters holds the two lists
// to each other.

#include <algorithm>
#include <array>
#include <string_view>

namespace mission {

inline constexpr std::array<std::string_view, 3> kAcpAdapterNames = {"acp", "claude-code-acp",
                                                                     "codex-acp"};

inline bool driven_over_acp(std::string_view adapter) {
  return std::find(kAcpAdapterNames.begin(), kAcpAdapterNames.end(), adapter) !=
         kAcpAdapterNames.end();
}

}  // namespace mission
