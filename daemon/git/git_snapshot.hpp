#pragma once
// Snapshots and change sets of a git work tree, through libgit2.
//
// A snapshot records the HEAD commit and tree at the start and the "dirty
// set": every path where the work tree differs from HEAD, each with its work
// tree state. A change set needs one status and one tree-to-tree diff, never
// a walk of the whole tree:
//   candidates = (start tree vs HEAD tree now) + dirty now + dirty at start
//   state at start = the dirty-at-start state, else the start tree's entry
//   state now      = the dirty-now state, else the HEAD tree's entry now
// and a candidate whose two states differ is in the change set. Ignored
// files that are not tracked are absent; submodules are left out.

#include <git2.h>

#include <optional>
#include <string>

#include "daemon/git/change_set.hpp"

namespace mission::daemon::git {

// The snapshot of the work tree holding `cwd`, an existing absolute
// directory; nullopt when there is none (or only a bare repository).
std::optional<Snapshot> take_git_snapshot(const std::string& cwd);

// `repo` is an open repository with a work tree.
Snapshot take_git_snapshot(git_repository* repo);

// `start` is a git snapshot (type "git").
ChangeSet compute_git_change_set(const Snapshot& start);

}  // namespace mission::daemon::git
