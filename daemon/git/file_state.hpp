#pragma once
// What both snapshot kinds reduce a path to, and how a list of (start, now)
// states becomes a ChangeSet.

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/git/change_set.hpp"

namespace mission::daemon::git {

// Git's modes, used for both snapshot kinds so that a chmod +x or a file
// turned into a symlink is a modification in both.
inline constexpr std::uint32_t kModeAbsent = 0;
inline constexpr std::uint32_t kModeFile = 0100644;
inline constexpr std::uint32_t kModeExecutable = 0100755;
inline constexpr std::uint32_t kModeSymlink = 0120000;

// How close to a snapshot's start a file's (or directory's) mtime or ctime
// may be before its stat data no longer proves it unchanged since: it may
// have changed again within one timestamp tick. File-system timestamps
// advance in ticks of a few milliseconds (and network file systems' clocks
// drift), so a generous window costs only re-reading recently changed files.
inline constexpr std::int64_t kRacyWindowNs = 2'000'000'000;

// A path's state: absent (mode kModeAbsent), or a mode and a content id (a
// blob oid in hex for git, a content hash in hex for checksum snapshots).
struct FileState {
  std::uint32_t mode = kModeAbsent;
  std::string content;

  bool present() const { return mode != kModeAbsent; }
  bool operator==(const FileState&) const = default;
};

struct PathStates {
  std::string path;
  FileState start, now;
};

// Classifies each path (absent -> present added, present -> absent deleted,
// any other difference modified, equal states dropped), sorts and dedupes
// the lists, then pairs each deleted path with an added one of the same
// mode and content as a rename (each path used once, in path order). Like
// git, empty files (content `empty_content`) are never paired: any new empty
// file would otherwise "rename" any deleted one.
ChangeSet build_change_set(const std::vector<PathStates>& paths, const std::string& empty_content);

}  // namespace mission::daemon::git
