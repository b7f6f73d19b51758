#pragma once
// Test harness for integration tests: temp dirs, real child processes
// (missiond and mission), and a raw client on the real Unix socket.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/eventually.hpp"
#include "support/temp_dir.hpp"

namespace mission::test {

// A shell function for fake agents that report with stdout markers:
// `m EVENT_ID SIGNAL_JSON` prints one marker line for the execution in
// $MISSION_AGENT_EXECUTION_ID. Ends with "; " so a script can follow.
inline constexpr const char* kMarkerShellFunction =
    "m() { printf "
    "'@agent-execution::{\"version\":1,\"agentExecutionId\":\"%s\",\"eventId\":\"%s\",\"signal\":%"
    "s}\\n' "
    "\"$MISSION_AGENT_EXECUTION_ID\" \"$1\" \"$2\"; }; ";

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Runtime and state dirs of one isolated mission instance.
struct Instance {
  TempDir root;
  fs::path runtime_dir() const { return root.path() / "run"; }
  fs::path state_dir() const { return root.path() / "state"; }
  fs::path socket() const { return runtime_dir() / "daemon.sock"; }
  fs::path log() const { return state_dir() / "missiond.log"; }
  // The environment a mission or missiond of this instance runs with.
  std::map<std::string, std::string> env() const;
};

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string out;
  std::string err;
};

// This process's environment with `overrides` set, as NAME=VALUE strings.
std::vector<std::string> make_environment(const std::map<std::string, std::string>& overrides);

// Runs argv to completion with the current environment plus `env`,
// capturing stdout and stderr. Fails the test after `timeout` (every
// bound below is a failure bound, scaled by kWaitScale in slow builds).
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env,
                          std::chrono::milliseconds timeout = 10s);

// `mission ARGS...` for the instance.
ProcessResult run_mission(const Instance& instance, const std::vector<std::string>& args);

// A missiond started in the foreground with a readiness pipe.
class DaemonProcess {
 public:
  explicit DaemonProcess(const Instance& instance, std::vector<std::string> extra_args = {},
                         std::string binary = MISSIOND_PATH);
  ~DaemonProcess();  // SIGKILLs the daemon if it is still running
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // The readiness report: "ready" or "error: ...".
  const std::string& readiness() const { return readiness_; }
  bool ready() const { return readiness_ == "ready"; }
  pid_t pid() const { return pid_; }
  void signal(int signum);
  // Exit code (128 + signal if killed); nullopt if still running at timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout = 10s);
  // What the daemon wrote to stderr (complete once it has exited).
  std::string stderr_text() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string readiness_;
  fs::path stderr_path_;
};

// A client on the control socket that speaks raw lines.
class RawClient {
 public:
  explicit RawClient(const fs::path& socket);
  ~RawClient();
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  void send(std::string_view bytes);
  // Like send, but reports failure (the peer is gone) instead of failing.
  bool try_send(std::string_view bytes);
  // The next line as JSON; nullopt on EOF. Fails the test on timeout.
  std::optional<nlohmann::json> read(std::chrono::milliseconds timeout = 5s);
  // The bytes after the last line read (a terminal's frames after
  // terminal.attach), else what arrives within `timeout`; empty when
  // nothing does or the peer closed.
  std::string read_bytes(std::chrono::milliseconds timeout);
  // Sends a request and returns the reply to it.
  nlohmann::json call(const std::string& method,
                      const nlohmann::json& params = nlohmann::json::object());
  // hello with the current protocol; returns its result.
  nlohmann::json hello();
  // True when the peer closed the connection within `timeout`.
  bool closed_by_peer(std::chrono::milliseconds timeout = 5s);

 private:
  int fd_ = -1;
  int next_id_ = 1;
  std::string buffer_;
};

// Whether a process with this pid exists and has not exited.
bool process_alive(pid_t pid);

std::string read_file(const fs::path& path);

// An MCP session spoken directly on the control socket (no bridge): hello,
// mcp.attach, initialize and its notification. False at the first step
// that fails, so a test killing the daemon can tell.
bool open_session(RawClient& client, const std::string& execution_id, const std::string& token,
                  const fs::path& cwd);

// Arms the test-only fault points `spec` names (shared/fault_points.hpp)
// for the next daemon started while it lives: the daemon reads
// MISSIOND_TEST_FAULTS once at start and drops it.
class ArmedFaults {
 public:
  explicit ArmedFaults(const std::string& spec);
  ~ArmedFaults();
  ArmedFaults(const ArmedFaults&) = delete;
  ArmedFaults& operator=(const ArmedFaults&) = delete;
};

}  // namespace mission::test
