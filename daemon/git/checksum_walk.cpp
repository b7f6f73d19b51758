#include "daemon/git/checksum_walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "daemon/git/content_hash.hpp"
#include "daemon/git/file_state.hpp"
#include "daemon/git/file_system_kind.hpp"
#include "daemon/git/worker_threads.hpp"
#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"

namespace mission::daemon::git::checksum {
namespace {

// Files a hashing thread takes from the shared list at a time.
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
  const std::uint64_t fields[] = {entry.size, static_cast<std::uint64_t>(entry.mtime_ns),
                                  entry.inode};
  ContentHash hash;
  hash.update(kTag.data(), kTag.size());
  hash.update(fields, sizeof fields);
  return hash.digest();
}

// A directory still to read, with the device of its parent: a change of
// device is a mount, checked for a pseudo file system before it is entered.
struct PendingDir {
  std::string path;
  dev_t parent_device;
};

// The directories of one walk, shared by its threads: each takes one, reads
// it whole (one descriptor per thread at a time, whatever the depth) and
// adds the directories it finds.
class DirectoryQueue {
 public:
  explicit DirectoryQueue(PendingDir first) { pending_.push_back(std::move(first)); }

  // The next directory, or false once none is left and no thread may add
  // more, or the walk failed.
  bool take(PendingDir& dir) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return failed_ || !pending_.empty() || busy_ == 0; });
    if (failed_ || pending_.empty()) return false;
    dir = std::move(pending_.back());
    pending_.pop_back();
    ++busy_;
    return true;
  }
  void add(std::vector<PendingDir>& found) {
    if (found.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& dir : found) pending_.push_back(std::move(dir));
    found.clear();
    ready_.notify_all();
  }
  void done_with_one() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0 && pending_.empty()) ready_.notify_all();
  }
  void fail() {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<PendingDir> pending_;
  std::size_t busy_ = 0;
  bool failed_ = false;
};

// Reads one directory: its files into `files`, its subdirectories into
// `subdirs`.
void read_directory(int root_fd, const std::string& root, const PendingDir& dir,
                    std::size_t max_files, std::atomic<std::size_t>& file_count,
                    std::vector<FileEntry>& files, std::vector<PendingDir>& subdirs,
                    std::string& target) {
  int fd = ::openat(root_fd, dir.path.empty() ? "." : dir.path.c_str(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;  // unreadable, or gone since its parent was read
  std::unique_ptr<DIR, DirCloser> stream(::fdopendir(fd));
  if (!stream) {
    ::close(fd);
    return;
  }
  struct stat self;
  if (::fstat(fd, &self) != 0) return;
  if (self.st_dev != dir.parent_device && file_system_kind(fd) == FileSystemKind::pseudo) return;
  std::string prefix = dir.path.empty() ? std::string() : dir.path + "/";
  while (const dirent* item = ::readdir(stream.get())) {
    std::string_view name = item->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = item->d_type;
    if (type == DT_DIR) {
      if (!is_skipped_directory(name)) subdirs.push_back({prefix + std::string(name), self.st_dev});
      continue;
    }
    if (type != DT_REG && type != DT_LNK && type != DT_UNKNOWN) continue;
    struct stat st;
    if (::fstatat(fd, item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (!is_skipped_directory(name)) subdirs.push_back({prefix + std::string(name), self.st_dev});
      continue;
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) continue;  // sockets, FIFOs, devices
    if (file_count.fetch_add(1, std::memory_order_relaxed) >= max_files) {
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
      ssize_t length = ::readlinkat(fd, item->d_name, target.data(), target.size());
      if (length < 0) continue;
      entry.hash = content_hash(std::string_view(target.data(), static_cast<std::size_t>(length)));
      entry.hashed = true;
    } else {
      entry.mode = (st.st_mode & S_IXUSR) != 0 ? kModeExecutable : kModeFile;
    }
    files.push_back(std::move(entry));
  }
}

void hash_one(int root_fd, FileEntry& entry, char* buffer, SnapshotControl& control,
              std::uint64_t max_hashed_bytes) {
  entry.hashed = true;
  if (entry.size > max_hashed_bytes) {
    entry.hash = stat_hash(entry);
    return;
  }
  if (entry.size == 0) {
    // Nothing to read. A file of a pseudo file system that says 0 but
    // streams would never end; a real one that grew since the walk has new
    // stat data and is read next time.
    entry.hash = content_hash("");
    return;
  }
  control.count_read(entry.size);
  // O_NONBLOCK: should a FIFO have replaced the file, open does not wait for
  // a writer.
  int fd = ::openat(root_fd, entry.path.c_str(),
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
      entry.mode = kModeAbsent;
    } else {
      entry.hash = kUnreadable;
    }
    return;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    entry.mode = kModeAbsent;  // no longer a regular file: left out, as the walk does
    return;
  }
  ContentHash hash;
  std::uint64_t total = 0;
  // At most the size the walk saw: the hash is of the file as it was then.
  while (total < entry.size) {
    std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(kReadBufferBytes, entry.size - total));
    ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      entry.hash = kUnreadable;
      return;
    }
    if (n == 0) break;  // shrunk since the walk: its stat data changed too
    hash.update(buffer, static_cast<std::size_t>(n));
    total += static_cast<std::uint64_t>(n);
  }
  ::close(fd);
  entry.hash = hash.digest();
}

}  // namespace

bool is_skipped_directory(std::string_view name) {
  return std::find(kSkippedDirectories.begin(), kSkippedDirectories.end(), name) !=
         kSkippedDirectories.end();
}

std::vector<FileEntry> walk_tree(int root_fd, const std::string& root, std::size_t max_files,
                                 SnapshotControl& control) {
  struct stat root_stat;
  if (::fstat(root_fd, &root_stat) != 0) return {};
  DirectoryQueue queue({"", root_stat.st_dev});
  std::atomic<std::size_t> file_count{0};
  unsigned threads = snapshot_threads();
  std::vector<std::vector<FileEntry>> found(threads);
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&](unsigned slot) {
    std::vector<PendingDir> subdirs;
    std::string target;
    PendingDir dir;
    while (queue.take(dir)) {
      try {
        control.check();
        faults::at(faults::FaultPoint::snapshot_walk);
        read_directory(root_fd, root, dir, max_files, file_count, found[slot], subdirs, target);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
        queue.fail();
      }
      queue.add(subdirs);
      queue.done_with_one();
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned i = 1; i < threads; ++i) helpers.emplace_back(work, i);
  work(0);
  for (auto& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);

  std::vector<FileEntry> files = std::move(found[0]);
  for (unsigned i = 1; i < threads; ++i) {
    files.insert(files.end(), std::make_move_iterator(found[i].begin()),
                 std::make_move_iterator(found[i].end()));
  }
  std::sort(files.begin(), files.end(),
            [](const FileEntry& a, const FileEntry& b) { return a.path < b.path; });
  return files;
}

void hash_files(int root_fd, std::vector<FileEntry>& entries, SnapshotControl& control,
                std::uint64_t max_hashed_bytes) {
  std::vector<FileEntry*> todo;
  for (auto& entry : entries) {
    if (!entry.hashed) todo.push_back(&entry);
  }
  // Reading many small files is bound by system calls, which run in
  // parallel across cores.
  unsigned threads = snapshot_threads();
  std::vector<std::unique_ptr<char[]>> buffers(threads);
  parallel_for(todo.size(), kHashBatch, threads, [&](std::size_t i, unsigned slot) {
    if (!buffers[slot]) buffers[slot] = std::make_unique<char[]>(kReadBufferBytes);
    hash_one(root_fd, *todo[i], buffers[slot].get(), control, max_hashed_bytes);
  });
}

}  // namespace mission::daemon::git::checksum
