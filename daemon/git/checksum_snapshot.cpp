#include "daemon/git/checksum_snapshot.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "daemon/git/checksum_walk.hpp"
#include "daemon/git/content_hash.hpp"
#include "daemon/git/file_state.hpp"
#include "daemon/git/file_system_kind.hpp"
#include "daemon/git/memo_store.hpp"
#include "daemon/git/snapshot_text.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

using checksum::FileEntry;

// Snapshot::data of a checksum snapshot:
//   mission-checksum-snapshot 1 <start time, ns since the epoch, hex>
// then one line per file, sorted by path:
//   <prefix> <mode> <size> <mtime> <ctime> <inode> <hash> <rest of path>
// all hex but mode (octal); the path is written as the bytes after the first
// <prefix> bytes it shares with the previous line's path; ctime is "=" when
// equal to mtime. About 60 bytes per file.
constexpr std::string_view kHeader = "mission-checksum-snapshot";
constexpr std::string_view kFormatVersion = "1";
constexpr std::string_view kSameAsMtime = "=";

class RootDirectory {
 public:
  explicit RootDirectory(const std::string& root) {
    fd_ = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) {
      if (errno == ENOENT || errno == ENOTDIR) {
        throw MissionError(ErrorCode::not_found, "directory " + root + " does not exist",
                           "pass the task's existing working directory");
      }
      throw MissionError(ErrorCode::invalid_argument,
                         "cannot read directory " + root + ": " + std::strerror(errno),
                         "check the directory's permissions");
    }
    if (file_system_kind(fd_) == FileSystemKind::pseudo) {
      std::string kind = file_system_name(fd_);
      ::close(fd_);
      throw MissionError(ErrorCode::invalid_argument,
                         root + " is on a " + kind +
                             " pseudo file system, whose files are generated as they are read: "
                             "there is nothing to snapshot",
                         "start the task from a directory of a real file system");
    }
  }
  ~RootDirectory() { ::close(fd_); }
  RootDirectory(const RootDirectory&) = delete;
  RootDirectory& operator=(const RootDirectory&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

std::string normalized_root(const std::string& cwd) {
  std::string root = std::filesystem::absolute(cwd).lexically_normal().string();
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

std::string hash_hex(std::uint64_t hash) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

std::string serialize(std::int64_t taken_ns, const std::vector<FileEntry>& files) {
  std::string data;
  data.reserve(64 + files.size() * 72);
  data.append(kHeader).append(" ").append(kFormatVersion).append(" ");
  text::append_hex(data, static_cast<std::uint64_t>(taken_ns));
  data += '\n';
  std::string_view previous;
  for (const auto& file : files) {
    if (file.mode == kModeAbsent) continue;
    std::size_t shared = 0;
    std::size_t limit = std::min(previous.size(), file.path.size());
    while (shared < limit && previous[shared] == file.path[shared]) ++shared;
    text::append_hex(data, shared);
    data += ' ';
    text::append_octal(data, file.mode);
    data += ' ';
    text::append_hex(data, file.size);
    data += ' ';
    text::append_hex(data, static_cast<std::uint64_t>(file.mtime_ns));
    data += ' ';
    if (file.ctime_ns == file.mtime_ns) {
      data.append(kSameAsMtime);
    } else {
      text::append_hex(data, static_cast<std::uint64_t>(file.ctime_ns));
    }
    data += ' ';
    text::append_hex(data, file.inode);
    data += ' ';
    text::append_hex(data, file.hash);
    data += ' ';
    text::append_path(data, std::string_view(file.path).substr(shared));
    data += '\n';
    previous = file.path;
  }
  return data;
}

struct ParsedSnapshot {
  std::int64_t taken_ns = 0;
  std::vector<FileEntry> files;
};

// The data of each tree's latest snapshot (a start snapshot or the state a
// comparison saw), so that the next snapshot of the same tree reads again
// only the files whose stat data moved.
MemoStore<std::string>& memo_store() {
  static MemoStore<std::string> store(limits::kMaxRememberedTrees, limits::kMaxChecksumMemoBytes);
  return store;
}

ParsedSnapshot parse(const std::string& data) {
  text::Reader reader(data);
  ParsedSnapshot parsed;
  if (!reader.next_line() || reader.field() != kHeader || reader.field() != kFormatVersion)
    reader.fail();
  parsed.taken_ns = static_cast<std::int64_t>(reader.hex(reader.last_field()));
  while (reader.next_line()) {
    FileEntry entry;
    std::uint64_t shared = reader.hex_field();
    entry.mode = reader.octal_field();
    entry.size = reader.hex_field();
    entry.mtime_ns = static_cast<std::int64_t>(reader.hex_field());
    auto ctime = reader.field();
    entry.inode = reader.hex_field();
    entry.hash = reader.hex_field();
    std::string rest = reader.path_rest();
    entry.ctime_ns =
        ctime == kSameAsMtime ? entry.mtime_ns : static_cast<std::int64_t>(reader.hex(ctime));
    std::string_view previous;
    if (!parsed.files.empty()) previous = parsed.files.back().path;
    if (shared > previous.size()) reader.fail();
    entry.path.assign(previous.substr(0, shared));
    entry.path += rest;
    entry.hashed = true;
    parsed.files.push_back(std::move(entry));
  }
  return parsed;
}

bool same_stat(const FileEntry& a, const FileEntry& b) {
  return a.mode == b.mode && a.size == b.size && a.mtime_ns == b.mtime_ns &&
         a.ctime_ns == b.ctime_ns && a.inode == b.inode;
}

FileState state_of(const FileEntry& entry, std::string_view unreadable_tag) {
  if (entry.mode == kModeAbsent) return {};
  // Unreadable content never equals anything but itself on the same side.
  if (entry.hash == checksum::kUnreadable) return {entry.mode, std::string(unreadable_tag)};
  return {entry.mode, hash_hex(entry.hash)};
}

// Gives each walked file not hashed yet the hash `earlier` recorded for it,
// when its stat data is the same and was not racy then. Both lists are
// sorted by path. When `matches` is given, matches[j] points to the entry of
// earlier that has now[j]'s path (or stays null).
void reuse_hashes(const ParsedSnapshot& earlier, std::vector<FileEntry>& now,
                  std::vector<const FileEntry*>* matches = nullptr) {
  std::int64_t racy_from = earlier.taken_ns - kRacyWindowNs;
  std::size_t i = 0;
  for (std::size_t j = 0; j < now.size(); ++j) {
    while (i < earlier.files.size() && earlier.files[i].path < now[j].path) ++i;
    if (i == earlier.files.size() || earlier.files[i].path != now[j].path) continue;
    const FileEntry& before = earlier.files[i];
    if (matches != nullptr) (*matches)[j] = &before;
    bool racy = before.mtime_ns >= racy_from || before.ctime_ns >= racy_from;
    if (!now[j].hashed && !racy && same_stat(before, now[j])) {
      now[j].hash = before.hash;
      now[j].hashed = true;
    }
  }
}

// The tree's state now: every file walked and hashed, reusing what the
// tree's previous snapshot learned. Remembers the result for the next one.
struct TreeState {
  std::int64_t taken_ns = 0;
  std::vector<FileEntry> files;
};

TreeState read_tree(int root_fd, const std::string& root, std::size_t max_files,
                    SnapshotControl& control, const ParsedSnapshot* start,
                    std::vector<const FileEntry*>* start_of) {
  TreeState state;
  // Taken before the walk: anything that changes from here on is newer.
  state.taken_ns = control.started_ns();
  state.files = checksum::walk_tree(root_fd, root, max_files, control);
  if (start != nullptr) {
    start_of->assign(state.files.size(), nullptr);
    reuse_hashes(*start, state.files, start_of);
  }
  if (std::unique_ptr<std::string> memo = memo_store().take(root)) {
    try {
      reuse_hashes(parse(*memo), state.files);
    } catch (const MissionError&) {
      // A memo this daemon wrote is never corrupt; if it were, hashing
      // everything is still right.
    }
  }
  checksum::hash_files(root_fd, state.files, control);
  return state;
}

void remember(const std::string& root, std::string data) {
  std::size_t cost = data.size();
  memo_store().put(root, std::make_unique<std::string>(std::move(data)), cost);
}

std::atomic<std::uint64_t>& no_cancellation() {
  static std::atomic<std::uint64_t> never{0};
  return never;
}

}  // namespace

Snapshot take_checksum_snapshot(const std::string& cwd, std::size_t max_files) {
  SnapshotControl control(no_cancellation(), cwd);
  return take_checksum_snapshot(cwd, control, max_files);
}

Snapshot take_checksum_snapshot(const std::string& cwd, SnapshotControl& control,
                                std::size_t max_files) {
  std::string root = normalized_root(cwd);
  RootDirectory directory(root);
  TreeState state = read_tree(directory.fd(), root, max_files, control, nullptr, nullptr);
  Snapshot snapshot;
  snapshot.type = "checksum";
  snapshot.root = root;
  snapshot.data = serialize(state.taken_ns, state.files);
  snapshot.id = hash_hex(content_hash(snapshot.data));
  remember(root, snapshot.data);
  return snapshot;
}

ChangeSet compute_checksum_change_set(const Snapshot& start, std::size_t max_files) {
  SnapshotControl control(no_cancellation(), start.root);
  return compute_checksum_change_set(start, control, max_files);
}

ChangeSet compute_checksum_change_set(const Snapshot& start, SnapshotControl& control,
                                      std::size_t max_files) {
  ParsedSnapshot parsed = parse(start.data);
  RootDirectory directory(start.root);
  // Each file's start entry is found by one merge pass over the two sorted
  // lists; an unchanged, non-racy one gives its hash.
  std::vector<const FileEntry*> start_of;
  TreeState state = read_tree(directory.fd(), start.root, max_files, control, &parsed, &start_of);
  std::vector<FileEntry>& now = state.files;

  std::vector<PathStates> changed;
  std::vector<bool> seen(parsed.files.size(), false);
  for (std::size_t j = 0; j < now.size(); ++j) {
    FileState after = state_of(now[j], "unreadable now");
    FileState before;
    if (start_of[j] != nullptr) {
      seen[static_cast<std::size_t>(start_of[j] - parsed.files.data())] = true;
      before = state_of(*start_of[j], "unreadable at start");
      // Unchanged stat data and unreadable on both sides: the same file.
      if (start_of[j]->hash == checksum::kUnreadable && now[j].hash == checksum::kUnreadable &&
          same_stat(*start_of[j], now[j])) {
        continue;
      }
    }
    if (before != after) changed.push_back({now[j].path, std::move(before), std::move(after)});
  }
  for (std::size_t i = 0; i < parsed.files.size(); ++i) {
    if (!seen[i])
      changed.push_back(
          {parsed.files[i].path, state_of(parsed.files[i], "unreadable at start"), {}});
  }
  remember(start.root, serialize(state.taken_ns, now));
  return build_change_set(changed, hash_hex(content_hash("")));
}

}  // namespace mission::daemon::git
