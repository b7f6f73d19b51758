#pragma once
// An agent followed from the shell to its end (mission run, mission
// workflows plan): its output as lines, Ctrl-C stopping it (SIGTERM, then
// SIGKILL after the grace period) and a second Ctrl-C killing it at once.

#include <nlohmann/json.hpp>
#include <string>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// Follows execution `id`'s log until it has ended and every line is
// printed, forwarding Ctrl-C and SIGTERM as stop requests. Returns the last
// page, which has the final state and the exit status.
nlohmann::json follow_agent_to_end(DaemonClient& client, const std::string& id);

// The exit status the shell gets for an agent that ended as `ended` (the
// last page: state, exitCode, exitSignal): 130 when it was stopped (as a
// shell reports an interrupted command), else the agent's own, 128 +
// signal when a signal killed it, 1 when it has none (lost).
int agent_exit_status(const nlohmann::json& ended);

}  // namespace mission::cli
