#pragma once
// Where mission keeps its runtime files (socket, pid, locks) and its state
// (database, logs), and the safety check every runtime dir must pass.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace mission {

// Looks up an environment variable; a seam so tests need not touch environ.
using EnvLookup = std::function<std::optional<std::string>(const char*)>;
EnvLookup process_env();

struct RuntimePaths {
  std::filesystem::path runtime_dir;
  std::filesystem::path state_dir;
  std::filesystem::path socket;  // defaults to runtime_dir/daemon.sock

  std::filesystem::path pid_file() const { return runtime_dir / "daemon.pid"; }
  std::filesystem::path daemon_lock() const { return runtime_dir / "daemon.lock"; }
  std::filesystem::path autostart_lock() const { return runtime_dir / "autostart.lock"; }
  // Temporary launch configs, one 0700 subdirectory per launched execution.
  std::filesystem::path launch_dir() const { return runtime_dir / "launch"; }
  std::filesystem::path database() const { return state_dir / "mission.db"; }
  std::filesystem::path logs_dir() const { return state_dir / "logs"; }
  std::filesystem::path daemon_log() const { return state_dir / "missiond.log"; }
};

// Resolves DESIGN.md §3: MISSION_RUNTIME_DIR, else $XDG_RUNTIME_DIR/mission,
// else ${TMPDIR:-/tmp}/mission-<uid>; MISSION_STATE_DIR, else
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

// Creates `dir` and parents (0700) without the ownership check, for the
// state dir, which may legitimately live on a shared file system.
void ensure_dir(const std::filesystem::path& dir);

// Longest socket path a sockaddr_un can hold on this system.
std::size_t max_socket_path_length();

}  // namespace mission
