#include "shared/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shared/error_code.hpp"

namespace mission {
namespace {

int open_lock_file(const std::filesystem::path& path) {
  // O_CLOEXEC: a daemon spawned while we hold the lock must not inherit it.
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    throw MissionError(ErrorCode::internal,
                       "cannot open lock file " + path.string() + ": " + std::strerror(errno),
                       "check the permissions of " + path.parent_path().string());
  }
  return fd;
}

}  // namespace

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  int fd = open_lock_file(path);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return std::nullopt;
    throw MissionError(ErrorCode::internal,
                       "cannot lock " + path.string() + ": " + std::strerror(error));
  }
  return FileLock(fd);
}

FileLock FileLock::acquire(const std::filesystem::path& path) {
  int fd = open_lock_file(path);
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    int error = errno;
    ::close(fd);
    throw MissionError(ErrorCode::internal,
                       "cannot lock " + path.string() + ": " + std::strerror(error));
  }
  return FileLock(fd);
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace mission
