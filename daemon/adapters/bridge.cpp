#include "daemon/adapters/bridge.hpp"

#include <unistd.h>

#include "shared/error_code.hpp"

namespace mission::daemon::adapters {

std::string mission_binary() {
  std::error_code error;
  auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  std::filesystem::path sibling =
      error ? std::filesystem::path("mission") : self.parent_path() / "mission";
  if (!error && ::access(sibling.c_str(), X_OK) == 0) return sibling.string();
  throw MissionError(
      ErrorCode::internal,
      "cannot provision MCP: no mission binary next to missiond (" + sibling.string() + ")",
      "install mission in the same directory as missiond; the launch does not "
      "fall back to stdout markers",
      {{"path", sibling.string()}});
}

BridgeEntry bridge_entry(const std::string& mission, const std::filesystem::path& socket,
                         const std::string& execution_id) {
  BridgeEntry bridge;
  bridge.command = mission;
  bridge.args = {"mcp", "connect"};
  if (!execution_id.empty()) {
    bridge.args.push_back("--agent-execution");
    bridge.args.push_back(execution_id);
  }
  // Absolute: the agent's MCP client may start the bridge anywhere.
  bridge.socket = std::filesystem::absolute(socket).lexically_normal().string();
  return bridge;
}

}  // namespace mission::daemon::adapters
