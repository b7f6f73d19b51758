#include "shared/runtime_paths.hpp"

#include <sys/stat.h>
#include <sys/un.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "shared/error_code.hpp"

namespace mission {
namespace fs = std::filesystem;

EnvLookup process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

RuntimePaths resolve_runtime_paths(const EnvLookup& env, unsigned uid,
                                   const std::optional<std::string>& socket_override) {
  RuntimePaths paths;
  if (auto dir = env("MISSION_RUNTIME_DIR")) {
    paths.runtime_dir = *dir;
  } else if (auto xdg = env("XDG_RUNTIME_DIR")) {
    paths.runtime_dir = fs::path(*xdg) / "mission";
  } else {
    paths.runtime_dir = fs::path(env("TMPDIR").value_or("/tmp")) / ("mission-" + std::to_string(uid));
  }

  if (auto dir = env("MISSION_STATE_DIR")) {
    paths.state_dir = *dir;
  } else if (auto xdg = env("XDG_STATE_HOME")) {
    paths.state_dir = fs::path(*xdg) / "mission";
  } else {
    paths.state_dir = fs::path(env("HOME").value_or("/")) / ".local" / "state" / "mission";
  }

  if (socket_override) {
    paths.socket = *socket_override;
  } else if (auto socket = env("MISSION_SOCKET")) {
    paths.socket = *socket;
  } else {
    paths.socket = paths.runtime_dir / "daemon.sock";
  }
  // Absolute, so a daemon started from another directory agrees on them.
  paths.runtime_dir = fs::absolute(paths.runtime_dir).lexically_normal();
  paths.state_dir = fs::absolute(paths.state_dir).lexically_normal();
  paths.socket = fs::absolute(paths.socket).lexically_normal();
  return paths;
}

std::optional<std::string> private_dir_problem(const fs::path& dir, unsigned uid) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return std::string("cannot stat: ") + std::strerror(errno);
  if (S_ISLNK(st.st_mode)) return "it is a symbolic link";
  if (!S_ISDIR(st.st_mode)) return "it is not a directory";
  if (st.st_uid != uid) {
    return "it is owned by uid " + std::to_string(st.st_uid) + ", not " + std::to_string(uid);
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return std::string("its mode is ") + mode + ", group and others must have no access";
  }
  return std::nullopt;
}

void ensure_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw MissionError(ErrorCode::internal,
                       "cannot create directory " + dir.string() + ": " + ec.message(),
                       "check that the parent directory exists and is writable");
  }
}

void ensure_private_dir(const fs::path& dir, unsigned uid) {
  if (!dir.parent_path().empty()) ensure_dir(dir.parent_path());
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "cannot create runtime dir " + dir.string() + ": " + std::strerror(errno),
                       "set MISSION_RUNTIME_DIR to a writable directory");
  }
  if (auto problem = private_dir_problem(dir, uid)) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "unsafe runtime dir " + dir.string() + ": " + *problem,
                       "run `chmod 700 " + dir.string() +
                           "` if it is yours, or set MISSION_RUNTIME_DIR to a private directory",
                       {{"path", dir.string()}});
  }
}

std::size_t max_socket_path_length() { return sizeof(sockaddr_un::sun_path) - 1; }

}  // namespace mission
