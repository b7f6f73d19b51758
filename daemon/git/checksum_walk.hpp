#pragma once
// The file-system side of checksum snapshots: walking a directory tree and
// hashing file contents.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/git/snapshot_control.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git::checksum {

// Directories never entered, wherever they are in the tree: version control
// metadata, installed dependencies, and tool caches. Their contents are
// large, rewritten by tools, and not what a task changes by hand.
inline constexpr std::array<std::string_view, 11> kSkippedDirectories = {
    ".git",  ".hg",  ".svn",        ".bzr",          "node_modules", "__pycache__",
    ".venv", ".tox", ".mypy_cache", ".pytest_cache", ".cache",
};

bool is_skipped_directory(std::string_view name);

// Content hash of a file that could not be read (permissions): never equal
// to what the file held before, once its stat data changed.
inline constexpr std::uint64_t kUnreadable = 0;

struct FileEntry {
  std::string path;        // relative to the root, '/'-separated
  std::uint32_t mode = 0;  // kModeFile, kModeExecutable, kModeSymlink; kModeAbsent once gone
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t inode = 0;
  std::uint64_t hash = 0;  // content_hash of the content (a symlink's target)
  bool hashed = false;
};

// Every regular file and symlink under the directory `root_fd`, sorted by
// path, with its stat data, read on snapshot_threads() threads. Symlinks are
// never followed: each is recorded with its target, hashed here. Sockets,
// FIFOs and devices are left out, and so are directories that cannot be
// opened and mounts of pseudo file systems (/proc, /sys, ...) met inside
// the tree. Throws MissionError payload_too_large past `max_files` files
// (`root` names the tree in the message), and what `control` throws.
std::vector<FileEntry> walk_tree(int root_fd, const std::string& root, std::size_t max_files,
                                 SnapshotControl& control);

// Hashes the content of every entry not yet hashed, on a few threads. A file
// gone since the walk (or no longer a regular file) gets mode kModeAbsent;
// an unreadable one kUnreadable. At most the size the walk saw is read: a
// file that grew since has new stat data, and is read again next time. A
// file over `max_hashed_bytes` is not read: its hash is one of its stat data
// from the walk (size, mtime, inode). The bytes read count against
// `control`'s budget.
void hash_files(int root_fd, std::vector<FileEntry>& entries, SnapshotControl& control,
                std::uint64_t max_hashed_bytes = limits::kMaxChecksumHashedFileBytes);

}  // namespace mission::daemon::git::checksum
