#pragma once
// Reaching the daemon, starting it when it is not running: take the
// autostart lock, check again (another CLI may have won), spawn missiond
// detached, wait on its readiness pipe, then connect with backoff.

#include "cli/daemon_client.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::cli {

struct DaemonConnection {
  DaemonClient client;
  bool started;  // true when this call spawned the daemon
};

// Connects to the daemon at paths.socket. When none answers and `autostart`
// is set, starts one; otherwise throws daemon_unavailable.
DaemonConnection connect_daemon(const RuntimePaths& paths, bool autostart);

// The missiond to run: $MISSION_DAEMON_BIN, else the one next to this
// executable, else "missiond" from PATH.
std::string daemon_binary();

}  // namespace mission::cli
