#pragma once
// git's index file (.git/index), read straight from a read-only memory map:
// the entries with their cached stat data, and the cache tree (the TREE
// extension: the tree id of each directory whose index content is
// unchanged since git last wrote it). Versions 2, 3 and 4 with SHA-1 ids,
// as gitformat-index(5) describes them.
//
// libgit2 reads the index too, but it copies every entry and checks the
// whole file's SHA-1 first: on 50,000 files that is ~35 ms, where mapping
// and walking the entries costs ~1 ms. An index this reader does not
// support (SHA-256, split or sparse index, a required extension it does
// not know) is reported, and the caller falls back to libgit2's status.

#include <sys/stat.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/git/file_state.hpp"

namespace mission::daemon::git {

inline constexpr std::size_t kOidBytes = 20;

// One index entry: its path and a pointer to its fixed fields in the map.
struct IndexEntry {
  std::string_view path;
  const unsigned char* fields;  // ctime, mtime, dev, ino, mode, uid, gid, size, oid, flags

  std::uint32_t ctime_s() const { return be32(0); }
  std::uint32_t ctime_ns() const { return be32(4); }
  std::uint32_t mtime_s() const { return be32(8); }
  std::uint32_t mtime_ns() const { return be32(12); }
  std::uint32_t dev() const { return be32(16); }
  std::uint32_t ino() const { return be32(20); }
  std::uint32_t mode() const { return be32(24); }
  std::uint32_t uid() const { return be32(28); }
  std::uint32_t gid() const { return be32(32); }
  std::uint32_t size() const { return be32(36); }  // the low 32 bits of the size
  const unsigned char* oid() const { return fields + 40; }
  std::uint16_t flags() const { return static_cast<std::uint16_t>(fields[60] << 8 | fields[61]); }
  int stage() const { return (flags() >> 12) & 3; }
  bool assume_valid() const { return (flags() & 0x8000) != 0; }
  bool extended() const { return (flags() & 0x4000) != 0; }
  std::uint16_t extended_flags() const {
    return extended() ? static_cast<std::uint16_t>(fields[62] << 8 | fields[63]) : 0;
  }

 private:
  std::uint32_t be32(int at) const {
    const unsigned char* p = fields + at;
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
  }
};

// One directory of the cache tree; `valid` when its id matches the index.
struct CacheTreeNode {
  bool valid = false;
  unsigned char oid[kOidBytes] = {};
  std::map<std::string, CacheTreeNode, std::less<>> children;
};

class IndexFile {
 public:
  // Maps and parses `path`. A missing file is an empty index. nullptr, with
  // `why` set, for an index this reader does not support or cannot parse.
  static std::unique_ptr<IndexFile> open(const std::string& path, std::string& why);
  ~IndexFile();
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;

  // Sorted by path (then stage), as git keeps them.
  const std::vector<IndexEntry>& entries() const { return entries_; }
  // The cache tree's root, or null without a TREE extension.
  const CacheTreeNode* cache_tree() const { return cache_tree_.get(); }
  // The index file's own stat data: its mtime decides which entries are
  // racily clean; the whole tells a later read whether it changed.
  const struct stat& file_stat() const { return stat_; }
  // Any entry git marks as special (a conflict, assume-valid, skip-worktree,
  // intent-to-add): the caller falls back to libgit2 for such an index.
  const std::string& special_entries() const { return special_; }

 private:
  IndexFile() = default;
  bool parse(std::string& why);

  void* map_ = nullptr;
  std::size_t size_ = 0;
  struct stat stat_ {};
  std::vector<IndexEntry> entries_;
  std::string paths_;  // version 4 paths, rebuilt from their prefix compression
  std::unique_ptr<CacheTreeNode> cache_tree_;
  std::string special_;
};

// The entry's state: its mode and blob id (absent for a submodule).
FileState index_entry_state(const IndexEntry& entry);

// Lowercase hex of a raw object id.
std::string oid_hex(const unsigned char* oid);

// Whether two stat times are the same for an index entry's cached time:
// nanoseconds count only when the index recorded some (git built without
// USE_NSEC writes 0 there).
inline bool same_index_time(std::uint32_t seconds, std::uint32_t nanoseconds,
                            const struct timespec& time) {
  return seconds == static_cast<std::uint32_t>(time.tv_sec) &&
         (nanoseconds == 0 || nanoseconds == static_cast<std::uint32_t>(time.tv_nsec));
}

}  // namespace mission::daemon::git
