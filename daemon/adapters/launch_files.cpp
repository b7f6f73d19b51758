#include "daemon/adapters/launch_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shared/error_code.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::adapters {
namespace {

MissionError cannot(const std::string& what, const std::filesystem::path& path,
                    const std::string& why) {
  return MissionError(ErrorCode::internal, "cannot " + what + " " + path.string() + ": " + why,
                      "check that the runtime dir is writable and has space; the launch does not "
                      "fall back to another delivery",
                      {{"path", path.string()}});
}

}  // namespace

LaunchFiles::LaunchFiles(LaunchFiles&& other) noexcept
    : dir_(std::move(other.dir_)), paths_(std::move(other.paths_)), created_(other.created_) {
  other.created_ = false;
  other.paths_.clear();
}

LaunchFiles& LaunchFiles::operator=(LaunchFiles&& other) noexcept {
  if (this != &other) {
    remove();
    dir_ = std::move(other.dir_);
    paths_ = std::move(other.paths_);
    created_ = other.created_;
    other.created_ = false;
    other.paths_.clear();
  }
  return *this;
}

void LaunchFiles::create_dir() {
  if (dir_.empty()) {
    throw MissionError(ErrorCode::internal, "this launch has no directory for its files");
  }
  // The parent holds every launch's files: private like the runtime dir.
  try {
    ensure_private_dir(dir_.parent_path(), ::getuid());
  } catch (const MissionError& e) {
    throw cannot("use", dir_.parent_path(), e.what());
  }
  if (::mkdir(dir_.c_str(), 0700) != 0) throw cannot("create", dir_, std::strerror(errno));
  created_ = true;
}

std::filesystem::path LaunchFiles::write(std::string_view name, std::string_view content) {
  if (!created_) create_dir();
  std::filesystem::path path = dir_ / std::string(name);
  // O_EXCL and O_NOFOLLOW: never write through something already there.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw cannot("create", path, std::strerror(errno));
  paths_.push_back(path);
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = errno;
      ::close(fd);
      throw cannot("write", path, std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw cannot("write", path, std::strerror(errno));
  return path;
}

void LaunchFiles::remove() noexcept {
  if (!created_) return;
  created_ = false;
  paths_.clear();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace mission::daemon::adapters
