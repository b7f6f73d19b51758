#pragma once
// What a git snapshot remembers of its tree for the next snapshot of the
// same tree (docs/adr/0005-tracking-and-change-sets.md):
//   - stat-checked knowledge, safe to use whenever the stat data still
//     matches: the content id of each file it had to hash, and the names a
//     directory held besides its tracked files (so an unchanged directory,
//     by its mtime, need not be listed again);
//   - for a watched tree, the whole result (the dirty set, what the index
//     stages, HEAD, the index file's stamp), valid only together with the
//     complete list of paths changed since, which the watcher keeps.

#include <sys/stat.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "daemon/git/file_state.hpp"

namespace mission::daemon::git {

// Every path where the work tree differs from HEAD, with its work tree state.
using DirtySet = std::map<std::string, FileState>;

// Paths where the index differs from HEAD, with both sides.
struct StagedSides {
  FileState head, index;
};
using StagedMap = std::map<std::string, StagedSides>;

// The stat data that decides whether a file is still what was hashed.
struct StatKey {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t inode = 0;
  std::uint32_t mode = 0;  // st_mode
  bool operator==(const StatKey&) const = default;
};

inline std::int64_t stat_ns(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1000000000 + time.tv_nsec;
}

inline StatKey stat_key(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_size), stat_ns(st.st_mtim), stat_ns(st.st_ctim),
          static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint32_t>(st.st_mode)};
}

struct LearnedFile {
  StatKey stat;
  FileState state;
};

// A directory's entries other than its tracked files and directories, as
// (name, dirent type); valid while the directory's stat data is the same.
struct DirListing {
  std::uint64_t inode = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t tracked_names = 0;  // hash of the tracked names it was merged with
  std::vector<std::pair<std::string, unsigned char>> others;
};

// The index file's identity: git replaces it whole (a rename), so any
// change moves its inode or times.
struct IndexStamp {
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const IndexStamp&) const = default;
};

inline IndexStamp index_stamp(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_ino), static_cast<std::int64_t>(st.st_size),
          stat_ns(st.st_mtim), stat_ns(st.st_ctim)};
}

struct GitTreeMemo {
  // Wall-clock time the snapshot that wrote this began. A file or directory
  // whose mtime or ctime was not older than this by kRacyWindowNs may have
  // changed again within one timestamp tick, its stat data unmoved: it is
  // not remembered, so what is remembered holds while the stat data is the
  // same.
  std::int64_t taken_ns = 0;
  std::unordered_map<std::string, LearnedFile> files;
  std::unordered_map<std::string, DirListing> listings;

  // A watched tree's last result, valid with `epoch` (see WatchRequest).
  bool watched = false;
  std::uint64_t epoch = 0;
  IndexStamp index;
  std::string head_commit;
  std::string ignore_sources;                // stat data of the global ignore files
  std::vector<std::string> attribute_files;  // the index's .gitattributes paths
  StagedMap staged;
  DirtySet dirty;

  std::size_t cost() const {
    return files.size() + listings.size() + dirty.size() + staged.size() + 1;
  }
};

}  // namespace mission::daemon::git
