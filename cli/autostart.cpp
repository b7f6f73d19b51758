#include "cli/autostart.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"
#include "shared/file_lock.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

using Clock = std::chrono::steady_clock;

MissionError not_running(const RuntimePaths& paths) {
  return MissionError(ErrorCode::daemon_unavailable,
                      "missiond is not running on " + paths.socket.string(),
                      "start it with 'mission daemon start', or drop --no-autostart");
}

MissionError start_failed(const RuntimePaths& paths, const std::string& why) {
  return MissionError(ErrorCode::daemon_unavailable, "could not start missiond: " + why,
                      "see " + paths.daemon_log().string() +
                          ", or run 'mission daemon run' to "
                          "watch it start in the foreground");
}

// In the grandchild: becomes missiond with stdio on /dev/null and the log.
[[noreturn]] void exec_daemon(const RuntimePaths& paths, const std::string& binary, int ready_fd) {
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int log_fd = ::open(paths.daemon_log().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  if (log_fd >= 0) {
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
  }
  ::fcntl(ready_fd, F_SETFD, 0);  // the one descriptor missiond must inherit
  std::string ready = std::to_string(ready_fd);
  // A daemon started on demand, by whatever runs mission (an agent among
  // them), never arms the test-only fault points.
  ::unsetenv(faults::kFaultsEnvironmentVariable);
  // The socket is passed explicitly so the daemon listens exactly where this
  // CLI will connect, whatever the environment says.
  std::vector<const char*> argv{binary.c_str(), "--ready-fd",         ready.c_str(),
                                "--socket",     paths.socket.c_str(), nullptr};
  ::execvp(binary.c_str(), const_cast<char* const*>(argv.data()));
  std::string message = "error: cannot run " + binary + ": " + std::strerror(errno) + "\n";
  ssize_t ignored = ::write(ready_fd, message.data(), message.size());
  (void)ignored;
  ::_exit(127);
}

// Forks twice so missiond is re-parented to init and outlives this CLI in
// its own session; returns the read end of its readiness pipe.
int spawn_daemon(const RuntimePaths& paths) {
  const std::string binary = daemon_binary();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw start_failed(paths, std::string("pipe: ") + std::strerror(errno));
  }
  pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw start_failed(paths, std::string("fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    ::setsid();
    pid_t grandchild = ::fork();
    if (grandchild == 0) exec_daemon(paths, binary, pipe_fds[1]);
    ::_exit(grandchild < 0 ? 1 : 0);
  }
  ::close(pipe_fds[1]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return pipe_fds[0];
}

// A daemon built with AddressSanitizer maps its shadow memory and a
// binary of some 300 MB before main: on a loaded machine that alone takes
// seconds, so that build (the sanitized test suite's) waits 4 times longer.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kReadinessWaitMs = 4 * limits::kAutostartTimeoutMs;
#else
constexpr int kReadinessWaitMs = limits::kAutostartTimeoutMs;
#endif

// Reads the daemon's one readiness line: "ready" or "error: ...".
std::string read_readiness(int fd, Clock::time_point deadline) {
  std::string line;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      return "error: no readiness report within " + std::to_string(kReadinessWaitMs) + " ms";
    pollfd pfd{fd, POLLIN, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char chunk[512];
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return line.empty() ? "error: missiond exited before it was ready" : line;
    line.append(chunk, static_cast<std::size_t>(n));
    if (auto newline = line.find('\n'); newline != std::string::npos)
      return line.substr(0, newline);
  }
}

// Connects, retrying with a doubling delay until the deadline.
std::optional<DaemonClient> connect_with_backoff(const RuntimePaths& paths,
                                                 Clock::time_point deadline) {
  auto delay = std::chrono::milliseconds(limits::kConnectRetryInitialMs);
  for (;;) {
    if (auto client = DaemonClient::connect(paths.socket)) return client;
    if (Clock::now() + delay > deadline) return std::nullopt;
    std::this_thread::sleep_for(delay);
    delay *= 2;
  }
}

}  // namespace

std::string daemon_binary() {
  if (const char* env = std::getenv("MISSION_DAEMON_BIN"); env != nullptr && *env != '\0')
    return env;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto sibling = self.parent_path() / "missiond";
    if (::access(sibling.c_str(), X_OK) == 0) return sibling.string();
  }
  return "missiond";
}

DaemonConnection connect_daemon(const RuntimePaths& paths, bool autostart) {
  if (auto client = DaemonClient::connect(paths.socket)) return {std::move(*client), false};
  if (!autostart) throw not_running(paths);

  ensure_private_dir(paths.runtime_dir, ::getuid());
  ensure_dir(paths.state_dir);
  FileLock lock = FileLock::acquire(paths.autostart_lock());
  // Another CLI may have started it while we waited for the lock.
  if (auto client = DaemonClient::connect(paths.socket)) return {std::move(*client), false};

  const auto deadline = Clock::now() + std::chrono::milliseconds(kReadinessWaitMs);
  int ready_fd = spawn_daemon(paths);
  std::string report = read_readiness(ready_fd, deadline);
  ::close(ready_fd);

  bool started = report == "ready";
  // "already running" means a daemon we could not see (e.g. still binding)
  // holds the lock: connecting to it is the right outcome.
  if (!started && report.find("already running") == std::string::npos) {
    throw start_failed(paths, report.rfind("error: ", 0) == 0 ? report.substr(7) : report);
  }
  if (auto client = connect_with_backoff(paths, deadline)) return {std::move(*client), started};
  throw start_failed(paths, "it reported ready but " + paths.socket.string() + " does not answer");
}

}  // namespace mission::cli
