#include "shared/runtime_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

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
  }

  if (auto dir = env("MISSION_STATE_DIR")) {
    paths.state_dir = *dir;
  } else if (auto xdg = env("XDG_STATE_HOME")) {
    paths.state_dir = fs::path(*xdg) / "mission";
  } else {
    paths.state_dir = fs::path(env("HOME").value_or("/")) / ".local" / "state" / "mission";
  }

  if (paths.runtime_dir.empty()) {
    // A shared /tmp: another user may have made this name first, to keep
    // mission from starting or to listen in. Then the state dir (in the
    // user's home) holds the runtime files; CLI and daemon agree on it.
    fs::path shared_tmp =
        fs::path(env("TMPDIR").value_or("/tmp")) / ("mission-" + std::to_string(uid));
    struct stat st {};
    if (lstat(shared_tmp.c_str(), &st) == 0) {
      if (auto problem = private_dir_problem(shared_tmp, uid)) {
        paths.runtime_dir = paths.state_dir / "run";
        paths.runtime_dir_note = "the runtime dir " + shared_tmp.string() + " is not safe (" +
                                 *problem + "); using " + paths.runtime_dir.string() +
                                 " instead. Set XDG_RUNTIME_DIR or MISSION_RUNTIME_DIR to choose";
      }
    }
    if (paths.runtime_dir.empty()) paths.runtime_dir = shared_tmp;
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

std::string ensure_state_dir(const fs::path& dir, unsigned uid) {
  if (!dir.parent_path().empty()) ensure_dir(dir.parent_path());
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "cannot create state dir " + dir.string() + ": " + std::strerror(errno),
                       "set MISSION_STATE_DIR to a writable directory");
  }
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "unsafe state dir " + dir.string() + ": " +
                           (S_ISDIR(st.st_mode) ? "it is owned by uid " + std::to_string(st.st_uid)
                                                : std::string("it is not a directory")),
                       "set MISSION_STATE_DIR to a directory of your own",
                       {{"path", dir.string()}});
  }
  if ((st.st_mode & 077) == 0) return {};
  if (chmod(dir.c_str(), st.st_mode & 0700) != 0) {
    throw MissionError(
        ErrorCode::unsafe_runtime_dir,
        "cannot make the state dir " + dir.string() + " private: " + std::strerror(errno),
        "run `chmod 700 " + dir.string() + "`", {{"path", dir.string()}});
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return "the state dir " + dir.string() + " was mode " + mode + "; it is 0700 now";
}

std::string ensure_private_file(const fs::path& file, unsigned uid, bool create) {
  struct stat st {};
  if (lstat(file.c_str(), &st) != 0) {
    if (errno != ENOENT || !create) return {};
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
      throw MissionError(ErrorCode::internal,
                         "cannot create " + file.string() + ": " + std::strerror(errno),
                         "check the state dir's permissions and free space");
    }
    ::close(fd);
    return {};
  }
  if (!S_ISREG(st.st_mode) || st.st_uid != uid) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "unsafe file " + file.string() + ": " +
                           (S_ISREG(st.st_mode) ? "it is owned by uid " + std::to_string(st.st_uid)
                                                : std::string("it is not a regular file")),
                       "move it away; mission keeps its database private",
                       {{"path", file.string()}});
  }
  if ((st.st_mode & 077) == 0) return {};
  if (chmod(file.c_str(), st.st_mode & 0600) != 0) {
    throw MissionError(ErrorCode::unsafe_runtime_dir,
                       "cannot make " + file.string() + " private: " + std::strerror(errno),
                       "run `chmod 600 " + file.string() + "`", {{"path", file.string()}});
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return file.string() + " was mode " + mode + "; it is 0600 now";
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

std::size_t max_socket_path_length() {
  return sizeof(sockaddr_un::sun_path) - 1;
}

}  // namespace mission
