// missiond: parses its few options, starts the Daemon and reports readiness
// (or the reason it could not start) on the --ready-fd pipe for auto-start.

#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>

#include "daemon/daemon.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/runtime_paths.hpp"
#include "shared/version.hpp"

namespace {

// Writes one line to the readiness pipe and closes it; -1 means no pipe.
void report_readiness(int& fd, const std::string& line) {
  if (fd < 0) return;
  std::string text = line + "\n";
  ssize_t ignored = ::write(fd, text.data(), text.size());
  (void)ignored;  // the parent may have given up waiting; nothing to do then
  ::close(fd);
  fd = -1;
}

// Every attached agent holds a socket; the usual soft limit of 1024 open
// files would cap the daemon below a thousand sessions. The hard limit is
// the administrator's bound, so go up to it.
void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"missiond: the mission daemon (see missiond(8))", "missiond"};
  std::optional<std::string> socket;
  int ready_fd = -1;
  app.add_option("--socket", socket, "Socket (default RUNTIME_DIR/daemon.sock)")
      ->type_name("PATH");
  app.add_option("--ready-fd", ready_fd, "Report 'ready' or 'error: ...' on FD")
      ->type_name("FD")
      ->check(CLI::NonNegativeNumber);
  std::int64_t idempotency_ttl_s = mission::limits::kIdempotencyTtlMs / 1000;
  std::int64_t idempotency_pending_ttl_s = mission::limits::kIdempotencyPendingTtlMs / 1000;
  app.add_option("--idempotency-ttl", idempotency_ttl_s,
                 "Keep a completed request_id's result this long (default 7 days)")
      ->type_name("SECONDS")
      ->envname("MISSION_IDEMPOTENCY_TTL")
      ->check(CLI::PositiveNumber);
  app.add_option("--idempotency-pending-ttl", idempotency_pending_ttl_s,
                 "Hold a request_id whose call is still running this long (default 1 hour)")
      ->type_name("SECONDS")
      ->envname("MISSION_IDEMPOTENCY_PENDING_TTL")
      ->check(CLI::PositiveNumber);
  mission::daemon::git::TreeWatchSettings tree_watching;
  app.add_flag("--watch-trees", tree_watching.watch_new_trees,
               "Watch the git trees tasks start in (inotify), so later snapshots look only at what "
               "changed")
      ->envname("MISSION_WATCH_TREES");
  app.set_version_flag("--version", std::string(mission::kVersion));
  CLI11_PARSE(app, argc, argv);

  // A peer that vanishes mid-write must not kill the daemon; write errors
  // are handled per connection.
  std::signal(SIGPIPE, SIG_IGN);
  raise_open_file_limit();

  try {
    mission::daemon::tracking::IdempotencySettings idempotency{idempotency_ttl_s * 1000,
                                                                 idempotency_pending_ttl_s * 1000};
    mission::daemon::Daemon daemon(
        mission::resolve_runtime_paths(mission::process_env(), getuid(), socket), idempotency,
        tree_watching);
    daemon.start();
    report_readiness(ready_fd, "ready");
    daemon.run();
    return 0;
  } catch (const mission::MissionError& e) {
    std::fprintf(stderr, "missiond: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "  hint: %s\n", e.hint().c_str());
    report_readiness(ready_fd, "error: " + std::string(e.what()));
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s\n", e.what());
    report_readiness(ready_fd, "error: " + std::string(e.what()));
    return 1;
  }
}
