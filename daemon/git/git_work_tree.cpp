#include "daemon/git/git_work_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "daemon/git/content_hash.hpp"
#include "daemon/git/file_system_kind.hpp"
#include "daemon/git/libgit2_handles.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "daemon/git/worker_threads.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

constexpr std::uint32_t kGitlinkMode = 0160000;
constexpr std::uint32_t kNoParent = 0xffffffff;
// Files up to this size are read into memory and hashed there (after the
// repository's filters); larger ones are left to libgit2, which streams
// them when no filter applies.
constexpr std::size_t kMaxBufferedHashBytes = 8 * 1024 * 1024;
// Directories a stat-pass thread takes at a time.
constexpr std::size_t kDirectoryBatch = 4;

enum Verdict : unsigned char {
  kClean,    // as the index says
  kHash,     // stat data changed, or racily clean: hash and compare
  kAbsent,   // gone, or not a regular file or symlink any more
  kGitlink,  // a submodule: never counted
};

using Names = std::vector<std::pair<std::string, unsigned char>>;

struct FdCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};

std::string join(const std::string& dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string path;
  path.reserve(dir.size() + 1 + name.size());
  path.append(dir).append("/").append(name);
  return path;
}

// Whether a change within the same timestamp tick could leave this stat
// data as it is: a write sets mtime and ctime to the time it happens; a
// tool that puts the mtime back (tar, rsync -t, cp -p) still moves the
// ctime, unless within the same tick.
bool racy_since(std::int64_t mtime_ns, std::int64_t ctime_ns, std::int64_t taken_ns) {
  return mtime_ns >= taken_ns - kRacyWindowNs || ctime_ns >= taken_ns - kRacyWindowNs;
}

unsigned char dirent_type(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return DT_DIR;
  if (S_ISREG(st.st_mode)) return DT_REG;
  if (S_ISLNK(st.st_mode)) return DT_LNK;
  return DT_UNKNOWN;  // sockets, FIFOs, devices: never counted
}

// Reads the names of an open directory (all but "." and ".."), with their
// types; DT_UNKNOWN types are resolved with a stat, and entries that are
// neither files, symlinks nor directories are left out.
Names read_names(DIR* stream) {
  Names names;
  while (const dirent* item = ::readdir(stream)) {
    std::string_view name = item->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = item->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (::fstatat(::dirfd(stream), item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = dirent_type(st);
    }
    if (type != DT_DIR && type != DT_REG && type != DT_LNK) continue;
    names.emplace_back(std::string(name), type);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::uint64_t hash_names(const std::vector<std::string_view>& names) {
  ContentHash hash;
  for (auto name : names) {
    hash.update(name.data(), name.size());
    hash.update("/", 1);
  }
  return hash.digest();
}

// A stat result compared with the index entry's cached stat data, as git's
// ie_match_stat does (dev aside, which git ignores by default too).
Verdict compare_stat(const IndexEntry& entry, const struct stat& st, std::int64_t index_mtime_s) {
  std::uint32_t mode;
  if (S_ISLNK(st.st_mode)) {
    mode = kModeSymlink;
  } else if (S_ISREG(st.st_mode)) {
    mode = (st.st_mode & S_IXUSR) != 0 ? kModeExecutable : kModeFile;
  } else {
    return kAbsent;
  }
  if (mode != entry.mode() || static_cast<std::uint32_t>(st.st_size) != entry.size() ||
      !same_index_time(entry.mtime_s(), entry.mtime_ns(), st.st_mtim) ||
      !same_index_time(entry.ctime_s(), entry.ctime_ns(), st.st_ctim) ||
      static_cast<std::uint32_t>(st.st_ino) != entry.ino() || st.st_uid != entry.uid() ||
      st.st_gid != entry.gid()) {
    return kHash;
  }
  // Racily clean: written within the second the index was, so a change
  // made after git cached this stat data may have left it as it was.
  if (static_cast<std::int64_t>(entry.mtime_s()) >= index_mtime_s) return kHash;
  return kClean;
}

// The blob id of a file's content as git would store it.
FileState hash_from_disk(git_repository* repo, const std::string& root, const std::string& relative,
                         const struct stat& st, SnapshotControl& control) {
  std::string full = root + "/" + relative;
  git_oid oid;
  if (S_ISLNK(st.st_mode)) {
    std::string target(static_cast<std::size_t>(st.st_size) + 1, '\0');
    ssize_t length = ::readlink(full.c_str(), target.data(), target.size());
    if (length < 0) return {};
    target.resize(static_cast<std::size_t>(length));
    lg2::check(git_odb_hash(&oid, target.data(), target.size(), GIT_OBJECT_BLOB),
               "hash " + relative);
    return {kModeSymlink, lg2::oid_hex(oid)};
  }
  if (!S_ISREG(st.st_mode)) return {};
  std::uint32_t mode = (st.st_mode & S_IXUSR) != 0 ? kModeExecutable : kModeFile;
  control.count_read(static_cast<std::uint64_t>(st.st_size));
  // Opened by us, not by libgit2: O_NONBLOCK so that a FIFO put in the
  // file's place since the stat never blocks the snapshot.
  int fd = ::open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) return {};
    throw MissionError(ErrorCode::git_error,
                       "git: cannot read " + relative + ": " + std::strerror(errno),
                       "check the file's permissions, then retry");
  }
  struct stat now;
  if (::fstat(fd, &now) != 0 || !S_ISREG(now.st_mode)) {
    ::close(fd);
    return {};
  }
  if (static_cast<std::uint64_t>(now.st_size) > kMaxBufferedHashBytes) {
    ::close(fd);
    if (git_repository_hashfile(&oid, repo, full.c_str(), GIT_OBJECT_BLOB, relative.c_str()) < 0) {
      if (::access(full.c_str(), F_OK) != 0) return {};
      lg2::fail("hash " + relative);
    }
    return {mode, lg2::oid_hex(oid)};
  }
  std::string content(static_cast<std::size_t>(now.st_size), '\0');
  std::size_t have = 0;
  while (have < content.size()) {
    ssize_t n = ::read(fd, content.data() + have, content.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      throw MissionError(ErrorCode::git_error,
                         "git: cannot read " + relative + ": " + std::strerror(error),
                         "check the file's permissions, then retry");
    }
    if (n == 0) break;  // shrunk meanwhile: its stat data moved, next time reads it again
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  content.resize(have);
  git_filter_list* filters = nullptr;
  lg2::check(git_filter_list_load(&filters, repo, nullptr, relative.c_str(), GIT_FILTER_TO_ODB,
                                  GIT_FILTER_DEFAULT),
             "load the filters of " + relative);
  if (filters == nullptr) {
    lg2::check(git_odb_hash(&oid, content.data(), content.size(), GIT_OBJECT_BLOB),
               "hash " + relative);
    return {mode, lg2::oid_hex(oid)};
  }
  git_buf filtered = GIT_BUF_INIT;
  int rc = git_filter_list_apply_to_buffer(&filtered, filters, content.data(), content.size());
  git_filter_list_free(filters);
  if (rc < 0) {
    git_buf_dispose(&filtered);
    lg2::fail("filter " + relative);
  }
  rc = git_odb_hash(&oid, filtered.ptr, filtered.size, GIT_OBJECT_BLOB);
  git_buf_dispose(&filtered);
  lg2::check(rc, "hash " + relative);
  return {mode, lg2::oid_hex(oid)};
}

// One directory of the pass: what the index puts in it, then what the pass
// found there.
struct ScanDir {
  std::string path;
  std::uint32_t parent = kNoParent;
  std::vector<std::uint32_t> files;       // index entries directly in it
  std::vector<std::string_view> subdirs;  // tracked subdirectories, sorted
  bool missing = false;
  struct stat st {};
  dev_t up_device = 0;
  ino_t up_inode = 0;
  std::uint64_t tracked_names = 0;
  bool listed = false;  // listed now (not from the previous snapshot)
  Names others;         // untracked, ignored or special names, from the listing
  Names replaced;       // tracked files now directories
};

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The directories the index implies, parents before children, each with
// its tracked files and subdirectories. The index is sorted by path, so
// the entries under any directory are contiguous: one pass with a stack of
// the directories open at the current entry.
std::vector<ScanDir> index_directories(const IndexFile& index) {
  std::vector<ScanDir> dirs(1);
  std::vector<std::uint32_t> open{0};
  const auto& entries = index.entries();
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    std::string_view path = entries[i].path;
    auto slash = path.rfind('/');
    std::string_view parent =
        slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    auto contains = [&](const std::string& dir) {
      return dir.empty() || (parent.size() >= dir.size() && parent.substr(0, dir.size()) == dir &&
                             (parent.size() == dir.size() || parent[dir.size()] == '/'));
    };
    while (!contains(dirs[open.back()].path)) open.pop_back();
    while (dirs[open.back()].path.size() < parent.size()) {
      const std::string& top = dirs[open.back()].path;
      std::size_t start = top.empty() ? 0 : top.size() + 1;
      std::size_t end = parent.find('/', start);
      if (end == std::string_view::npos) end = parent.size();
      ScanDir dir;
      dir.path = std::string(parent.substr(0, end));
      dir.parent = open.back();
      dirs[open.back()].subdirs.push_back(path.substr(start, end - start));
      dirs.push_back(std::move(dir));
      open.push_back(static_cast<std::uint32_t>(dirs.size() - 1));
    }
    dirs[open.back()].files.push_back(i);
  }
  return dirs;
}

struct PassContext {
  WorkTreePass& pass;
  int root_fd;
  dev_t root_device;
  bool trusted;
  std::int64_t index_mtime_s;
  std::vector<unsigned char>& verdicts;
};

// Reads one directory of the pass: its listing (or the previous one), and
// the stat data of its tracked files.
void scan_directory(PassContext& context, ScanDir& dir) {
  WorkTreePass& pass = context.pass;
  pass.control.check();
  const auto& entries = pass.index.entries();
  if (pass.watches != nullptr) pass.watches->add(dir.path);
  int fd = ::openat(context.root_fd, dir.path.empty() ? "." : dir.path.c_str(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || ::fstat(fd, &dir.st) != 0) {
    if (fd >= 0) ::close(fd);
    dir.missing = true;
    return;
  }
  std::unique_ptr<DIR, FdCloser> stream;
  struct stat up;
  if (::fstatat(fd, "..", &up, 0) == 0) {
    dir.up_device = up.st_dev;
    dir.up_inode = up.st_ino;
  }

  // Tracked names, sorted: files and directories interleave in path order.
  std::vector<std::string_view> tracked;
  tracked.reserve(dir.files.size() + dir.subdirs.size());
  for (auto i : dir.files) tracked.push_back(base_name(entries[i].path));
  tracked.insert(tracked.end(), dir.subdirs.begin(), dir.subdirs.end());
  std::sort(tracked.begin(), tracked.end());
  dir.tracked_names = hash_names(tracked);

  const DirListing* previous = nullptr;
  if (pass.previous != nullptr && context.trusted && dir.st.st_dev == context.root_device) {
    auto found = pass.previous->listings.find(dir.path);
    if (found != pass.previous->listings.end()) previous = &found->second;
  }
  if (previous != nullptr && previous->inode == static_cast<std::uint64_t>(dir.st.st_ino) &&
      previous->mtime_ns == stat_ns(dir.st.st_mtim) &&
      previous->ctime_ns == stat_ns(dir.st.st_ctim) &&
      previous->tracked_names == dir.tracked_names) {
    dir.others = previous->others;
  } else {
    dir.listed = true;
    stream.reset(::fdopendir(fd));
    if (!stream) {
      ::close(fd);
      dir.missing = true;
      return;
    }
    Names names = read_names(stream.get());
    // Both sorted: one merge finds the names the index does not hold.
    std::size_t t = 0;
    for (auto& [name, type] : names) {
      while (t < tracked.size() && tracked[t] < name) ++t;
      bool is_tracked = t < tracked.size() && tracked[t] == name;
      bool tracked_dir = is_tracked && std::binary_search(dir.subdirs.begin(), dir.subdirs.end(),
                                                          std::string_view(name));
      // A tracked directory that is now a file or a symlink: the file is
      // untracked, the directory's entries are gone (its own open fails).
      if (!is_tracked || (tracked_dir && type != DT_DIR))
        dir.others.emplace_back(std::move(name), type);
    }
  }
  int dir_fd = stream ? ::dirfd(stream.get()) : fd;

  for (auto i : dir.files) {
    const IndexEntry& entry = entries[i];
    if (entry.mode() == kGitlinkMode) {
      context.verdicts[i] = kGitlink;
      continue;
    }
    std::string name(base_name(entry.path));
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      context.verdicts[i] = kAbsent;
      continue;
    }
    context.verdicts[i] = compare_stat(entry, st, context.index_mtime_s);
    if (S_ISDIR(st.st_mode)) dir.replaced.emplace_back(std::move(name), DT_DIR);
  }
  if (!stream) ::close(fd);
}

// Remembers a directory's listing for the next snapshot, unless the
// directory changed so recently that another change within the same
// timestamp tick could leave its mtime as it is.
void remember_listing(GitTreeMemo& learned, const std::string& path, const struct stat& st,
                      std::uint64_t tracked_names, const Names& others) {
  if (racy_since(stat_ns(st.st_mtim), stat_ns(st.st_ctim), learned.taken_ns)) return;
  if (learned.listings.size() >= limits::kMaxRememberedFilesPerTree) return;
  learned.listings[path] = {static_cast<std::uint64_t>(st.st_ino), stat_ns(st.st_mtim),
                            stat_ns(st.st_ctim), tracked_names, others};
}

// Walks the untracked entries `names` of directory `dir`, adding the files
// that are not ignored to `untracked` and walking the directories.
void add_untracked(git_repository* repo, const std::string& root, const std::string& dir,
                   const Names& names, SnapshotControl& control, const GitTreeMemo* previous,
                   GitTreeMemo& learned, WatchAdder* watches, SnapshotStats& stats,
                   std::map<std::string, FileState>& untracked) {
  for (const auto& [name, type] : names) {
    if (name == ".git") continue;  // the repository itself, or a nested one's
    std::string relative = join(dir, name);
    if (type == DT_DIR) {
      if (is_ignored(repo, relative)) continue;
      scan_untracked_directory(repo, root, relative, control, previous, learned, watches, stats,
                               untracked);
      continue;
    }
    if (type != DT_REG && type != DT_LNK) continue;
    if (is_ignored(repo, relative)) continue;
    struct stat st;
    if (::lstat((root + "/" + relative).c_str(), &st) != 0) continue;  // gone since the listing
    FileState state =
        work_tree_file_state(repo, root, relative, st, control, previous, learned, stats);
    if (state.present()) untracked[relative] = std::move(state);
  }
}

}  // namespace

bool trusted_file_system(int root_fd) {
  return file_system_kind(root_fd) == FileSystemKind::local;
}

bool WatchAdder::add(const std::string& relative) {
  if (failed()) return false;
  if (used_.fetch_add(1, std::memory_order_relaxed) >= budget_) {
    fail("it needs more than " + std::to_string(budget_) + " inotify watches (one per directory)");
    return false;
  }
  std::string path = relative.empty() ? root_ : root_ + "/" + relative;
  int wd = ::inotify_add_watch(fd_, path.c_str(), kWatchMask);
  if (wd < 0) {
    if (errno == ENOSPC) {
      fail("the user's inotify watch limit (/proc/sys/fs/inotify/max_user_watches) is reached");
    } else if (errno == ENOMEM) {
      fail("the kernel is out of memory for inotify watches");
    } else if (errno != ENOENT && errno != ENOTDIR && errno != EACCES) {
      fail(std::string("inotify_add_watch failed: ") + std::strerror(errno));
    }
    // A directory gone or unreadable since it was listed needs no watch:
    // its parent's watch reports it coming back.
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  added_.emplace_back(wd, relative);
  return true;
}

void WatchAdder::fail(std::string reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed_.exchange(true)) return;
  failure_ = std::move(reason);
}

std::string WatchAdder::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

std::vector<std::pair<int, std::string>> WatchAdder::take_added() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(added_);
}

bool is_ignored(git_repository* repo, const std::string& relative) {
  int ignored = 0;
  lg2::check(git_ignore_path_is_ignored(&ignored, repo, relative.c_str()),
             "check the ignore rules for " + relative);
  return ignored == 1;
}

FileState work_tree_file_state(git_repository* repo, const std::string& root,
                               const std::string& relative, const struct stat& st,
                               SnapshotControl& control, const GitTreeMemo* previous,
                               GitTreeMemo& learned, SnapshotStats& stats) {
  StatKey key = stat_key(st);
  if (previous != nullptr) {
    auto found = previous->files.find(relative);
    // Only files that were not racy when hashed are remembered, so the same
    // stat data proves the same content.
    if (found != previous->files.end() && found->second.stat == key) {
      ++stats.files_reused;
      FileState state = found->second.state;
      if (&learned != previous && learned.files.size() < limits::kMaxRememberedFilesPerTree) {
        learned.files[relative] = found->second;
      }
      return state;
    }
  }
  ++stats.files_hashed;
  FileState state = hash_from_disk(repo, root, relative, st, control);
  if (state.present() && !racy_since(key.mtime_ns, key.ctime_ns, learned.taken_ns) &&
      learned.files.size() < limits::kMaxRememberedFilesPerTree) {
    learned.files[relative] = {key, state};
  }
  return state;
}

void scan_untracked_directory(git_repository* repo, const std::string& root,
                              const std::string& relative, SnapshotControl& control,
                              const GitTreeMemo* previous, GitTreeMemo& learned,
                              WatchAdder* watches, SnapshotStats& stats,
                              std::map<std::string, FileState>& untracked) {
  control.check();
  std::string full = root + "/" + relative;
  // A nested repository is its own business, as in git status.
  struct stat dot_git;
  if (::lstat((full + "/.git").c_str(), &dot_git) == 0) return;
  if (watches != nullptr) watches->add(relative);
  int fd = ::open(full.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return;
  }
  Names names;
  const DirListing* listing = nullptr;
  if (previous != nullptr && trusted_file_system(fd)) {
    auto found = previous->listings.find(relative);
    if (found != previous->listings.end()) listing = &found->second;
  }
  static const std::uint64_t kNothingTracked = hash_names({});
  if (listing != nullptr && listing->inode == static_cast<std::uint64_t>(st.st_ino) &&
      listing->mtime_ns == stat_ns(st.st_mtim) && listing->ctime_ns == stat_ns(st.st_ctim) &&
      listing->tracked_names == kNothingTracked) {
    names = listing->others;
    ++stats.directories_reused;
    ::close(fd);
  } else {
    ++stats.directories_listed;
    std::unique_ptr<DIR, FdCloser> stream(::fdopendir(fd));
    if (!stream) {
      ::close(fd);
      return;
    }
    names = read_names(stream.get());
  }
  remember_listing(learned, relative, st, kNothingTracked, names);
  add_untracked(repo, root, relative, names, control, previous, learned, watches, stats, untracked);
}

WorkTreeState scan_work_tree(WorkTreePass& pass) {
  int root_fd = ::open(pass.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) {
    throw MissionError(ErrorCode::not_found, "the repository's work tree " + pass.root + " is gone",
                       "restore the directory or start the task again");
  }
  struct stat root_stat;
  ::fstat(root_fd, &root_stat);
  const auto& entries = pass.index.entries();
  std::vector<unsigned char> verdicts(entries.size(), kClean);
  std::vector<ScanDir> dirs = index_directories(pass.index);
  PassContext context{pass,
                      root_fd,
                      root_stat.st_dev,
                      trusted_file_system(root_fd),
                      static_cast<std::int64_t>(pass.index.file_stat().st_mtim.tv_sec),
                      verdicts};
  try {
    parallel_for(dirs.size(), kDirectoryBatch, snapshot_threads(),
                 [&](std::size_t i, unsigned) { scan_directory(context, dirs[i]); });
  } catch (...) {
    ::close(root_fd);
    throw;
  }
  ::close(root_fd);

  // A directory opened through a symlink put where a tracked directory was
  // (its ".." is not its parent), or below a missing one, is missing too:
  // git does not follow symlinks into the tree.
  for (auto& dir : dirs) {
    if (dir.parent == kNoParent || dir.missing) continue;
    const ScanDir& parent = dirs[dir.parent];
    if (parent.missing || dir.up_inode != parent.st.st_ino || dir.up_device != parent.st.st_dev) {
      dir.missing = true;
    }
  }

  WorkTreeState state;
  for (auto& dir : dirs) {
    if (dir.missing) {
      state.missing_dirs.push_back(dir.path);
      for (auto i : dir.files) {
        if (verdicts[i] != kGitlink) verdicts[i] = kAbsent;
      }
      continue;
    }
    ++(dir.listed ? pass.stats.directories_listed : pass.stats.directories_reused);
    remember_listing(pass.learned, dir.path, dir.st, dir.tracked_names, dir.others);
  }

  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    if (verdicts[i] == kClean || verdicts[i] == kGitlink) continue;
    const IndexEntry& entry = entries[i];
    std::string path(entry.path);
    FileState index = index_entry_state(entry);
    if (verdicts[i] == kAbsent) {
      state.tracked[path] = {std::move(index), {}};
      continue;
    }
    pass.control.check();
    struct stat st;
    FileState now;
    if (::lstat((pass.root + "/" + path).c_str(), &st) == 0) {
      now = work_tree_file_state(pass.repo, pass.root, path, st, pass.control, pass.previous,
                                 pass.learned, pass.stats);
    }
    if (now != index) state.tracked[path] = {std::move(index), std::move(now)};
  }

  for (const auto& dir : dirs) {
    if (dir.missing) continue;
    add_untracked(pass.repo, pass.root, dir.path, dir.others, pass.control, pass.previous,
                  pass.learned, pass.watches, pass.stats, state.untracked);
    add_untracked(pass.repo, pass.root, dir.path, dir.replaced, pass.control, pass.previous,
                  pass.learned, pass.watches, pass.stats, state.untracked);
  }
  return state;
}

}  // namespace mission::daemon::git
