#include "cli/cli_context.hpp"

#include <unistd.h>

namespace mission::cli {

RuntimePaths CliContext::paths() const {
  return resolve_runtime_paths(process_env(), ::getuid(), options.socket);
}

DaemonConnection CliContext::connect() const { return connect_daemon(paths(), !options.no_autostart); }

std::optional<DaemonClient> CliContext::connect_if_running() const {
  return DaemonClient::connect(paths().socket);
}

}  // namespace mission::cli
