#include "daemon/git/checksum_walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <exception>
#include <memory>
#include <thread>

#include "daemon/git/content_hash.hpp"
#include "daemon/git/file_state.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git::checksum {
namespace {

// Hashing runs on at most this many threads, and only with enough files to
// hash that starting threads pays off. Reading many small files is bound by
// system calls, which run in parallel across cores.
constexpr unsigned kMaxHashThreads = 4;
constexpr std::size_t kFilesPerThread = 128;
// Files a thread takes from the shared list at a time.
constexpr std::size_t kHashBatch = 16;
constexpr std::size_t kReadBufferBytes = 64 * 1024;

struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1000000000 + time.tv_nsec;
}

// Stands for the content of a file too large to read: changes with any
// write that moves its size, mtime or inode. The tag keeps it apart from
// the content hash of any file.
std::uint64_t stat_hash(const FileEntry& entry) {
  constexpr std::string_view kTag = "mission-stat-hash";
  const std::uint64_t fields[] = {entry.size, static_cast<std::uint64_t>(entry.mtime_ns), entry.inode};
  ContentHash hash;
  hash.update(kTag.data(), kTag.size());
  hash.update(fields, sizeof fields);
  return hash.digest();
}

void hash_one(int root_fd, FileEntry& entry, char* buffer, std::uint64_t max_hashed_bytes) {
  entry.hashed = true;
  if (entry.size > max_hashed_bytes) {
    entry.hash = stat_hash(entry);
    return;
  }
  // O_NONBLOCK: should a FIFO have replaced the file, open does not wait for
  // a writer.
  int fd = ::openat(root_fd, entry.path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      entry.mode = kModeAbsent;
    } else {
      entry.hash = kUnreadable;
    }
    return;
  }
  ContentHash hash;
  std::uint64_t total = 0;
  for (;;) {
    ssize_t n = ::read(fd, buffer, kReadBufferBytes);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      entry.hash = kUnreadable;
      return;
    }
    if (n == 0) break;
    hash.update(buffer, static_cast<std::size_t>(n));
    total += static_cast<std::uint64_t>(n);
    // A short read that reaches the size the walk saw is the end: skip the
    // extra read(2) that would return 0. Should the file have grown since,
    // its stat data changed too, and the next comparison hashes it again.
    if (static_cast<std::size_t>(n) < kReadBufferBytes && total == entry.size) break;
  }
  ::close(fd);
  entry.hash = hash.digest();
}

}  // namespace

bool is_skipped_directory(std::string_view name) {
  return std::find(kSkippedDirectories.begin(), kSkippedDirectories.end(), name) !=
         kSkippedDirectories.end();
}

std::vector<FileEntry> walk_tree(int root_fd, const std::string& root, std::size_t max_files) {
  std::vector<FileEntry> files;
  // Directories still to read. Each is read whole and closed before the
  // next is opened, so a deep tree never holds more than one descriptor.
  std::vector<std::string> pending{""};
  std::string target;
  while (!pending.empty()) {
    std::string dir = std::move(pending.back());
    pending.pop_back();
    int fd = ::openat(root_fd, dir.empty() ? "." : dir.c_str(),
                      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;  // unreadable, or gone since its parent was read
    std::unique_ptr<DIR, DirCloser> stream(::fdopendir(fd));
    if (!stream) {
      ::close(fd);
      continue;
    }
    std::string prefix = dir.empty() ? std::string() : dir + "/";
    while (const dirent* item = ::readdir(stream.get())) {
      std::string_view name = item->d_name;
      if (name == "." || name == "..") continue;
      unsigned char type = item->d_type;
      if (type == DT_DIR) {
        if (!is_skipped_directory(name)) pending.push_back(prefix + std::string(name));
        continue;
      }
      if (type != DT_REG && type != DT_LNK && type != DT_UNKNOWN) continue;
      struct stat st;
      if (::fstatat(::dirfd(stream.get()), item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        if (!is_skipped_directory(name)) pending.push_back(prefix + std::string(name));
        continue;
      }
      if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) continue;  // sockets, FIFOs, devices
      if (files.size() >= max_files) {
        throw MissionError(ErrorCode::payload_too_large,
                           root + " holds more than " + std::to_string(max_files) +
                               " files, too many for a checksum snapshot",
                           "run the task inside a git repository, or from a narrower directory");
      }
      FileEntry entry;
      entry.path = prefix + std::string(name);
      entry.size = static_cast<std::uint64_t>(st.st_size);
      entry.mtime_ns = nanoseconds(st.st_mtim);
      entry.ctime_ns = nanoseconds(st.st_ctim);
      entry.inode = static_cast<std::uint64_t>(st.st_ino);
      if (S_ISLNK(st.st_mode)) {
        entry.mode = kModeSymlink;
        target.resize(static_cast<std::size_t>(st.st_size) + 256);
        ssize_t length = ::readlinkat(::dirfd(stream.get()), item->d_name, target.data(), target.size());
        if (length < 0) continue;
        entry.hash = content_hash(std::string_view(target.data(), static_cast<std::size_t>(length)));
        entry.hashed = true;
      } else {
        entry.mode = (st.st_mode & S_IXUSR) != 0 ? kModeExecutable : kModeFile;
      }
      files.push_back(std::move(entry));
    }
  }
  std::sort(files.begin(), files.end(),
            [](const FileEntry& a, const FileEntry& b) { return a.path < b.path; });
  return files;
}

void hash_files(int root_fd, std::vector<FileEntry>& entries, std::uint64_t max_hashed_bytes) {
  std::vector<FileEntry*> todo;
  for (auto& entry : entries) {
    if (!entry.hashed) todo.push_back(&entry);
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    try {
      auto buffer = std::make_unique<char[]>(kReadBufferBytes);
      for (;;) {
        std::size_t first = next.fetch_add(kHashBatch);
        if (first >= todo.size()) break;
        std::size_t last = std::min(first + kHashBatch, todo.size());
        for (std::size_t i = first; i < last; ++i) hash_one(root_fd, *todo[i], buffer.get(), max_hashed_bytes);
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  unsigned threads = std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, kMaxHashThreads);
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, todo.size() / kFilesPerThread + 1));
  std::vector<std::thread> helpers;
  for (unsigned i = 1; i < threads; ++i) helpers.emplace_back(work);
  work();
  for (auto& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace mission::daemon::git::checksum
