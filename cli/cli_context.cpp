#include "cli/cli_context.hpp"

#include <unistd.h>

namespace mission::cli {

RuntimePaths CliContext::paths() const {
  std::optional<std::string> socket = options.socket;
  if (!socket) {
    if (const char* env = std::getenv("MISSION_SOCKET"); env != nullptr && *env != '\0') socket = env;
  }
  return resolve_runtime_paths(process_env(), ::getuid(), socket);
}

DaemonConnection CliContext::connect() const { return connect_daemon(paths(), !options.no_autostart); }

std::optional<DaemonClient> CliContext::connect_if_running() const {
  return DaemonClient::connect(paths().socket);
}

}  // namespace mission::cli
