// mission daemon start|stop|status|run: the daemon's own lifecycle.

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/output.hpp"
#include "cli/status_view.hpp"
#include "shared/error_code.hpp"
#include "shared/file_lock.hpp"
#include "shared/limits.hpp"
#include "shared/vocabulary.hpp"

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

// The launched executions a stop would leave running unrecorded (their
// agents outlive the daemon, and the next one marks them lost), at most a
// few. External and attached ones have no process of the daemon's.
nlohmann::json active_executions(DaemonClient& client) {
  nlohmann::json active = nlohmann::json::array();
  for (ExecutionState state : active_execution_states()) {
    // Every page: external executions in the same state must not hide a
    // launched one behind the first.
    const nlohmann::json executions =
        fetch_all(client, "execution.list", {{"state", name_of(state)}}, "executions");
    for (const auto& execution : executions) {
      if (execution.value("kind", "") == "launched" &&
          active.size() < limits::kMaxStopWarningExecutions) {
        active.push_back(
            {{"id", execution.value("id", "")}, {"state", execution.value("state", "")}});
      }
    }
  }
  return active;
}

// A person at a terminal is asked; anyone else is refused, since the
// agents would go on with nothing recording them. --force skips both.
bool agree_to_stop_with(const CliContext& context, const nlohmann::json& active) {
  std::string listed;
  for (const auto& execution : active) {
    listed += "\n  " + execution.value("id", "") + " (" + execution.value("state", "") + ")";
  }
  const std::string warning =
      "mission: these agents are still running:" + listed +
      "\n  They keep running after the daemon stops, with nothing recording them,"
      "\n  and the next daemon marks their executions lost.\n";
  if (!context.options.json && ::isatty(STDIN_FILENO) == 1 && ::isatty(STDERR_FILENO) == 1) {
    std::fputs(warning.c_str(), stderr);
    std::fputs("Stop the daemon anyway? [y/N] ", stderr);
    char answer[16] = {};
    if (std::fgets(answer, sizeof answer, stdin) == nullptr) return false;
    return answer[0] == 'y' || answer[0] == 'Y';
  }
  if (context.options.json) {
    print_json({{"stopped", false}, {"activeExecutions", active}});
  } else {
    std::fputs(warning.c_str(), stderr);
  }
  std::fputs(
      "  hint: wait for them ('mission exec show ID --follow'), stop them\n"
      "  ('mission exec stop ID'), or give --force\n",
      stderr);
  return false;
}

int run_stop(const CliContext& context, bool force) {
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
  if (!force) {
    const nlohmann::json active = active_executions(*client);
    if (!active.empty() && !agree_to_stop_with(context, active)) return kExitFailure;
  }
  client->call("daemon.stop");
  if (!wait_for_exit(paths)) {
    throw MissionError(
        ErrorCode::internal,
        "missiond (pid " + std::to_string(pid) + ") did not exit within " +
            std::to_string(limits::kStopTimeoutMs / 1000) + " s",
        "see " + paths.daemon_log().string() + "; 'kill " + std::to_string(pid) + "' ends it");
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
      // The path whole, even past the terminal's edge: it is there to be copied.
      std::printf("missiond is %s on %s\n", styled("not running", Tone::bad).c_str(),
                  safe(socket).c_str());
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
  throw MissionError(ErrorCode::internal, "cannot run " + binary + ": " + std::strerror(errno),
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
  add_action(command, "start", "Start missiond in the background, wait until ready", context,
             run_start);
  CLI::App* stop =
      command.add_subcommand("stop", "Stop missiond gracefully and wait for it to exit");
  stop->fallthrough();
  auto force = std::make_shared<bool>(false);
  stop->add_flag("--force", *force, "Stop even while executions are active, without asking");
  stop->callback([&context, force] {
    context.action = [&context, force] { return run_stop(context, *force); };
  });
  add_action(command, "status", "Show whether missiond runs (exit 3 if not)", context,
             run_daemon_status);
  add_action(command, "run", "Run missiond in the foreground", context, run_foreground);
}

}  // namespace mission::cli
