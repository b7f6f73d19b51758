#pragma once
// How the daemon's daemon.status answer is shown, by `mission status` and
// `mission daemon status`.

#include <nlohmann/json.hpp>

namespace mission::cli {

// The "daemon" object of the --json output: the daemon.status result
// without its "executions" summary.
nlohmann::json daemon_view(const nlohmann::json& status);

// Human lines for a running daemon.
void print_daemon_status(const nlohmann::json& status);

}  // namespace mission::cli
