#pragma once
// Snapshots and change sets of a directory outside any git work tree, from
// file checksums.
//
// The snapshot walks the tree under its root (never following symlinks,
// skipping checksum::kSkippedDirectories) and records, per regular file or
// symlink: mode, size, mtime and ctime in nanoseconds, inode, and a 64-bit
// content hash (XXH64 of the content, or of a symlink's target). It refuses
// trees of more than `max_files` files (limits::kMaxChecksumFiles).
//
// Stat rule: comparing later, a file whose mode, size, mtime, ctime and
// inode all equal the snapshot's is unchanged without being read, unless its
// mtime or ctime falls within kRacyWindowNs of the snapshot's start (it may
// have changed again within one timestamp tick; such files are read again).
// Any other file is hashed and compared by mode and content, so a touch
// without a change does not count. Renames pair a deleted and an added file
// of equal mode and content, as in git.

#include <cstddef>
#include <string>

#include "daemon/git/change_set.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git {

// How close to the snapshot's start a file's mtime or ctime may be before its
// stat data no longer proves it unchanged. File-system timestamps advance in
// ticks of a few milliseconds (and network file systems' clocks drift), so a
// generous window costs only re-reading recently changed files.
inline constexpr std::int64_t kRacyWindowNs = 2'000'000'000;

// `root` is an absolute directory. Throws MissionError not_found (missing),
// invalid_argument (unreadable), payload_too_large (over `max_files`).
Snapshot take_checksum_snapshot(const std::string& root,
                                std::size_t max_files = limits::kMaxChecksumFiles);

// `start` is a checksum snapshot (type "checksum"). Same exceptions.
ChangeSet compute_checksum_change_set(const Snapshot& start,
                                      std::size_t max_files = limits::kMaxChecksumFiles);

}  // namespace mission::daemon::git
