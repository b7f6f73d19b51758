#include "daemon/adapters/acp_launch.hpp"

#include "shared/error_code.hpp"

namespace mission::daemon::adapters {

LaunchPlan acp_launch_plan(const LaunchRequest& request, std::vector<std::string> argv) {
  if (request.on_terminal) {
    throw MissionError(ErrorCode::invalid_argument,
                       "an ACP agent speaks JSON-RPC on its stdio and cannot run on a terminal",
                       "run it with --no-tty (mission exec logs shows its steps)");
  }
  argv.insert(argv.end(), request.arguments.begin(), request.arguments.end());
  // Its token reaches it in session/new, never through the environment.
  return {std::move(argv), {}, {"MISSION_MCP_TOKEN"}, LaunchFiles()};
}

std::string_view acp_output_format(const std::vector<std::string>&) {
  return kAcpStreamFormat;
}

}  // namespace mission::daemon::adapters
