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
// The tree's latest snapshot (or the state a comparison saw) is kept in
// memory (limits::kMaxChecksumMemoBytes for all trees): the next snapshot of
// the same tree reuses the hash of every file whose stat data is unchanged
// and was not racy then, so only changed files are read again. A root on a
// pseudo file system (/proc, /sys, ...) is refused.
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
#include "daemon/git/file_state.hpp"
#include "daemon/git/snapshot_control.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git {

// `root` is an absolute directory. Throws MissionError not_found (missing),
// invalid_argument (unreadable, or a pseudo file system), payload_too_large
// (over `max_files`, or over `control`'s bounds), shutting_down (cancelled).
Snapshot take_checksum_snapshot(const std::string& root, SnapshotControl& control,
                                std::size_t max_files = limits::kMaxChecksumFiles);

// `start` is a checksum snapshot (type "checksum"). Same exceptions.
ChangeSet compute_checksum_change_set(const Snapshot& start, SnapshotControl& control,
                                      std::size_t max_files = limits::kMaxChecksumFiles);

// The same with the default bounds and no cancellation.
Snapshot take_checksum_snapshot(const std::string& root,
                                std::size_t max_files = limits::kMaxChecksumFiles);
ChangeSet compute_checksum_change_set(const Snapshot& start,
                                      std::size_t max_files = limits::kMaxChecksumFiles);

}  // namespace mission::daemon::git
