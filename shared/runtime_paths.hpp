#pragma once
// Where mission keeps its runtime files (socket, pid, locks) and its state
// (database, logs), and the safety check every runtime dir must pass.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mission {

// Looks up an environment variable; a seam so tests need not touch environ.
using EnvLookup = std::function<std::optional<std::string>(const char*)>;
EnvLookup process_env();

struct RuntimePaths {
  std::filesystem::path runtime_dir;
  std::filesystem::path state_dir;
  std::filesystem::path socket;  // defaults to runtime_dir/daemon.sock
  // Set when the default runtime dir under /tmp was taken by another user
  // and the alternative is used: what happened, for the daemon's log.
  std::string runtime_dir_note;

  std::filesystem::path pid_file() const { return runtime_dir / "daemon.pid"; }
  std::filesystem::path daemon_lock() const { return runtime_dir / "daemon.lock"; }
  std::filesystem::path autostart_lock() const { return runtime_dir / "autostart.lock"; }
  // Temporary launch configs, one 0700 subdirectory per launched execution.
  std::filesystem::path launch_dir() const { return runtime_dir / "launch"; }
  std::filesystem::path database() const { return state_dir / "mission.db"; }
  std::filesystem::path logs_dir() const { return state_dir / "logs"; }
  // Confined agents' private TMPDIRs, one folder per launch: on disk, not
  // in a runtime dir that may be a small tmpfs.
  std::filesystem::path sandbox_temp_dir() const { return state_dir / "tmp"; }
  // The folder the daemon gives an adapter's agents to keep their state
  // in, kept between launches: for an agent whose CLI mission does not
  // know (the acp adapter), whose own state folders it cannot name.
  std::filesystem::path agent_home_dir(std::string_view adapter) const {
    return state_dir / "agent-home" / std::string(adapter);
  }
  std::filesystem::path daemon_log() const { return state_dir / "missiond.log"; }
};

// Resolves DESIGN.md §3: MISSION_RUNTIME_DIR, else $XDG_RUNTIME_DIR/mission,
// else ${TMPDIR:-/tmp}/mission-<uid> unless that exists and is not a private
// directory of `uid` (another user may create it first), in which case
// <state dir>/run; MISSION_STATE_DIR, else
// $XDG_STATE_HOME/mission, else ~/.local/state/mission. The socket is
// `socket_override` (from --socket), else $MISSION_SOCKET, else
// runtime_dir/daemon.sock.
RuntimePaths resolve_runtime_paths(const EnvLookup& env, unsigned uid,
                                   const std::optional<std::string>& socket_override = {});

// Why `dir` is not a safe private directory for `uid` (not a directory, a
// symlink, owned by someone else, group/other bits set), or nullopt if safe.
std::optional<std::string> private_dir_problem(const std::filesystem::path& dir, unsigned uid);

// Creates `dir` (and parents) with mode 0700 if missing, then checks it.
// Throws MissionError(unsafe_runtime_dir) naming the dir and the fix.
void ensure_private_dir(const std::filesystem::path& dir, unsigned uid);

// Creates `dir` and parents (0700) without the ownership check.
void ensure_dir(const std::filesystem::path& dir);

// The state dir: created 0700 if missing. An existing one must belong to
// `uid`; group and other access is removed (earlier versions made it 0755).
// Throws MissionError(unsafe_runtime_dir) otherwise. Returns what it
// changed, for the log, or an empty string.
std::string ensure_state_dir(const std::filesystem::path& dir, unsigned uid);

// Makes `file` (the database, its -wal and -shm) mode 0600, creating the
// first empty with that mode if it is missing, so that SQLite, which gives
// its -wal and -shm the database's mode, never makes them readable by
// others. Returns what it changed, or an empty string.
std::string ensure_private_file(const std::filesystem::path& file, unsigned uid, bool create);

// Longest socket path a sockaddr_un can hold on this system.
std::size_t max_socket_path_length();

}  // namespace mission
