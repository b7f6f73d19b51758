// mission daemon start|stop|status|run: the daemon's own lifecycle.

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <thread>
#include <vector>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/status_view.hpp"
#include "shared/error_code.hpp"
#include "shared/file_lock.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

int run_start(const CliContext& context) {
  // Starting is the point here, so --no-autostart does not apply.
  DaemonConnection connection = connect_daemon(context.paths(), true);
  const long pid = connection.client.daemon_pid();
  if (context.options.json) {
    print_json({{"running", true},
                {"started", connection.started},
                {"pid", pid},
                {"socket", context.paths().socket.string()}});
  } else {
    std::printf("missiond %s (pid %ld)\n", connection.started ? "started" : "already running", pid);
  }
  return kExitOk;
}

// The daemon releases its lock only when the process is gone, so a free lock
// is the exact sign that it has exited.
bool wait_for_exit(const RuntimePaths& paths) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(limits::kStopTimeoutMs);
  auto delay = std::chrono::milliseconds(limits::kConnectRetryInitialMs);
  for (;;) {
    if (FileLock::try_acquire(paths.daemon_lock())) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(200));
  }
}

int run_stop(const CliContext& context) {
  const RuntimePaths paths = context.paths();
  std::optional<DaemonClient> client = context.connect_if_running();
  if (!client) {
    if (context.options.json) {
      print_json({{"stopped", false}, {"pid", nullptr}});
    } else {
      std::printf("missiond is not running\n");
    }
    return kExitOk;
  }
  const long pid = client->daemon_pid();
  client->call("daemon.stop");
  if (!wait_for_exit(paths)) {
    throw MissionError(ErrorCode::internal,
                       "missiond (pid " + std::to_string(pid) + ") did not exit within " +
                           std::to_string(limits::kStopTimeoutMs / 1000) + " s",
                       "see " + paths.daemon_log().string() + "; 'kill " + std::to_string(pid) +
                           "' ends it");
  }
  if (context.options.json) {
    print_json({{"stopped", true}, {"pid", pid}});
  } else {
    std::printf("missiond stopped (pid %ld)\n", pid);
  }
  return kExitOk;
}

int run_daemon_status(const CliContext& context) {
  std::optional<DaemonClient> client = context.connect_if_running();
  if (!client) {
    const std::string socket = context.paths().socket.string();
    if (context.options.json) {
      print_json({{"running", false}, {"socket", socket}});
    } else {
      std::printf("missiond is %s on %s\n", styled("not running", Tone::bad).c_str(),
                  fit(socket, output_columns() - 26).c_str());
    }
    return kExitDaemonUnavailable;
  }
  nlohmann::json status = client->call("daemon.status");
  if (context.options.json) {
    print_json(daemon_view(status));
  } else {
    print_daemon_status(status);
  }
  return kExitOk;
}

// Replaces this process with missiond, so signals and the exit status are
// the daemon's own.
int run_foreground(const CliContext& context) {
  const std::string binary = daemon_binary();
  std::vector<const char*> argv{binary.c_str()};
  if (context.options.socket) {
    argv.push_back("--socket");
    argv.push_back(context.options.socket->c_str());
  }
  argv.push_back(nullptr);
  ::execvp(binary.c_str(), const_cast<char* const*>(argv.data()));
  throw MissionError(ErrorCode::internal,
                     "cannot run " + binary + ": " + std::strerror(errno),
                     "install missiond next to mission, or set MISSION_DAEMON_BIN");
}

void add_action(CLI::App& parent, const char* name, const char* summary, CliContext& context,
                int (*run)(const CliContext&)) {
  CLI::App* command = parent.add_subcommand(name, summary);
  command->fallthrough();
  command->callback([&context, run] { context.action = [&context, run] { return run(context); }; });
}

}  // namespace

void define_daemon_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  add_action(command, "start", "Start missiond in the background, wait until ready",
             context, run_start);
  add_action(command, "stop", "Stop missiond gracefully and wait for it to exit", context,
             run_stop);
  add_action(command, "status", "Show whether missiond runs (exit 3 if not)",
             context, run_daemon_status);
  add_action(command, "run", "Run missiond in the foreground", context, run_foreground);
}

}  // namespace mission::cli
