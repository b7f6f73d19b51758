#pragma once
// An advisory lock on a file (flock), released when the object goes away or
// the process dies, so a crashed holder never leaves a stale lock behind.

#include <filesystem>
#include <optional>

namespace mission {

class FileLock {
 public:
  // Takes the lock if it is free; nullopt if another process holds it.
  // Throws MissionError(internal) if the file cannot be opened.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path);

  // Waits for the lock.
  static FileLock acquire(const std::filesystem::path& path);

  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace mission
