// missiond: parses its few options, starts the Daemon and reports readiness
// (or the reason it could not start) on the --ready-fd pipe for auto-start.

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "daemon/daemon.hpp"
#include "daemon/http/host_check.hpp"
#include "daemon/http/listen_address.hpp"
#include "daemon/sandbox/kernel_support.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"
#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"
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

// --http-host's names, checked; a listener on every address needs one,
// since no client sends 0.0.0.0 as its Host.
std::vector<std::string> http_host_names(const sockaddr_storage& address,
                                         const std::vector<std::string>& names,
                                         const std::string& http) {
  for (const std::string& name : names) {
    if (!mission::daemon::http::valid_host_name(name)) {
      throw mission::MissionError(
          mission::ErrorCode::invalid_argument, "--http-host '" + name + "' is not a host name",
          "give a DNS name or an address without a port, e.g. devbox.example or 10.0.0.5");
    }
  }
  if (names.empty() && mission::daemon::http::is_wildcard(address)) {
    throw mission::MissionError(
        mission::ErrorCode::invalid_argument,
        "--http " + http + " listens on every address, but no name of this host is given",
        "name the host as clients will reach it, e.g. --http-host devbox.example,10.0.0.5: "
        "requests are refused unless their Host names the listener (against DNS rebinding)");
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"missiond: the mission daemon (see missiond(8))", "missiond"};
  std::optional<std::string> socket;
  int ready_fd = -1;
  app.add_option("--socket", socket, "Socket (default RUNTIME_DIR/daemon.sock)")->type_name("PATH");
  app.add_option("--ready-fd", ready_fd, "Report 'ready' or 'error: ...' on FD")
      ->type_name("FD")
      ->check(CLI::NonNegativeNumber);
  std::int64_t idempotency_ttl_s = mission::limits::kIdempotencyTtlMs / 1000;
  std::int64_t idempotency_pending_ttl_s = mission::limits::kIdempotencyPendingTtlMs / 1000;
  app.add_option("--idempotency-ttl", idempotency_ttl_s,
                 "Keep a completed request_id's result this long; 0 keeps it (default 7 days)")
      ->type_name("SECONDS")
      ->envname("MISSION_IDEMPOTENCY_TTL")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--idempotency-pending-ttl", idempotency_pending_ttl_s,
                 "Hold a request_id whose call is still running this long; 0: never stale "
                 "(default 1 hour)")
      ->type_name("SECONDS")
      ->envname("MISSION_IDEMPOTENCY_PENDING_TTL")
      ->check(CLI::NonNegativeNumber);
  std::int64_t log_retention_s = mission::limits::kFinalLogRetentionMs / 1000;
  std::int64_t execution_retention_s = mission::limits::kFinalExecutionRetentionMs / 1000;
  std::uint64_t daemon_log_max = mission::limits::kDaemonLogMaxBytes;
  app.add_option("--log-retention", log_retention_s,
                 "Delete an ended execution's output log this long after it ended; 0 keeps "
                 "logs (default 30 days)")
      ->type_name("SECONDS")
      ->envname("MISSION_LOG_RETENTION")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--execution-retention", execution_retention_s,
                 "Delete an ended execution with its observations this long after it ended; 0 "
                 "keeps them (default 90 days)")
      ->type_name("SECONDS")
      ->envname("MISSION_EXECUTION_RETENTION")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--daemon-log-max", daemon_log_max,
                 "Move missiond.log to missiond.log.1 past this size; 0 never (default 16 MiB)")
      ->type_name("BYTES")
      ->envname("MISSION_DAEMON_LOG_MAX")
      ->check(CLI::NonNegativeNumber);
  bool watch_trees = false;
  app.add_flag("--watch-trees", watch_trees,
               "Watch the git trees tasks start in (inotify), so later snapshots look only at what "
               "changed")
      ->envname("MISSION_WATCH_TREES");
  std::size_t max_connections = mission::limits::kMaxConnections;
  int hello_timeout_ms = mission::limits::kHelloTimeoutMs;
  app.add_option("--max-connections", max_connections,
                 "Hold at most this many connections; one more is refused with the reason "
                 "(default 256)")
      ->type_name("N")
      ->envname("MISSION_MAX_CONNECTIONS")
      ->check(CLI::PositiveNumber);
  app.add_option("--hello-timeout", hello_timeout_ms,
                 "Close a connection that has not sent hello within this many milliseconds "
                 "(default 10000)")
      ->type_name("MS")
      ->envname("MISSION_HELLO_TIMEOUT")
      ->check(CLI::PositiveNumber);
  std::string synchronous = "normal";
  app.add_option("--synchronous", synchronous,
                 "normal: acknowledged writes survive a daemon crash; full: a power loss too, at "
                 "one fsync per commit (default normal)")
      ->type_name("MODE")
      ->envname("MISSION_SYNCHRONOUS")
      ->check(CLI::IsMember({"normal", "full"}));
  std::string sandbox = "on";
  app.add_option("--sandbox", sandbox,
                 "on: agents are confined where the kernel can, and run unconfined with a warning "
                 "where it cannot; require: refuse to launch them there (default on)")
      ->type_name("on|require")
      ->envname("MISSION_SANDBOX")
      ->check(CLI::IsMember({"on", "require"}));
  std::string http;
  app.add_option("--http", http,
                 "Serve MCP over Streamable HTTP on ADDR:PORT, e.g. 127.0.0.1:8080 (port 0 picks "
                 "one; off by default)")
      ->type_name("ADDR:PORT")
      ->envname("MISSION_HTTP");
  std::vector<std::string> http_hosts;
  app.add_option("--http-host", http_hosts,
                 "A name clients reach the --http listener by (a DNS name or an address), "
                 "checked against each request's Host; repeat or separate with commas. Needed "
                 "for 0.0.0.0 or [::]")
      ->type_name("NAME")
      ->delimiter(',')
      ->envname("MISSION_HTTP_HOST");
  app.set_version_flag("--version", std::string(mission::kVersion));
  CLI11_PARSE(app, argc, argv);

  // A peer that vanishes mid-write must not kill the daemon; write errors
  // are handled per connection.
  std::signal(SIGPIPE, SIG_IGN);
  raise_open_file_limit();

  try {
    // Test-only (mission-mcp(7), ENVIRONMENT): read once, then gone from
    // the environment, so nothing the daemon launches inherits it.
    if (std::string_view faults = mission::faults::configure_from_environment(); !faults.empty()) {
      std::fprintf(stderr, "missiond: test-only fault points armed: %s=%.*s\n",
                   mission::faults::kFaultsEnvironmentVariable, static_cast<int>(faults.size()),
                   faults.data());
    }
    // Probed once, before any launch; a kernel that cannot confine agents
    // is said at start as well as on every launch.
    mission::daemon::sandbox::configure_from_environment();
    mission::daemon::sandbox::set_policy(mission::daemon::sandbox::policy_from_name(sandbox));
    if (const auto& support = mission::daemon::sandbox::kernel_support();
        support.landlock_abi == 0) {
      std::fprintf(stderr, "missiond: agents will %s: %s\n",
                   sandbox == "require" ? "not be launched (--sandbox require)" : "run unconfined",
                   support.landlock_missing.c_str());
    }
    mission::daemon::DaemonSettings settings;
    settings.idempotency = {idempotency_ttl_s * 1000, idempotency_pending_ttl_s * 1000};
    settings.retention = {log_retention_s * 1000, execution_retention_s * 1000, daemon_log_max};
    settings.tree_watching.watch_new_trees = watch_trees;
    settings.connections = {max_connections, hello_timeout_ms};
    settings.synchronous = synchronous;
    if (!http.empty()) {
      settings.http = mission::daemon::http::parse_listen_address(http);
      if (!settings.http) {
        throw mission::MissionError(
            mission::ErrorCode::invalid_argument, "--http " + http + " is not ADDR:PORT",
            "give an IP address and a port, e.g. 127.0.0.1:8080 or [::1]:0");
      }
      settings.http_hosts = http_host_names(*settings.http, http_hosts, http);
    } else if (!http_hosts.empty()) {
      throw mission::MissionError(mission::ErrorCode::invalid_argument,
                                  "--http-host names a listener that is not there",
                                  "give --http ADDR:PORT as well");
    }
    mission::daemon::Daemon daemon(
        mission::resolve_runtime_paths(mission::process_env(), getuid(), socket), settings);
    daemon.start();
    // Start-up (migrations, recovery, the first queries) leaves freed heap
    // behind that glibc keeps; an idle daemon should not hold it.
    malloc_trim(0);
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
