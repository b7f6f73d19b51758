#pragma once
// Snapshots and change sets of a git work tree, through libgit2.
//
// A snapshot records the HEAD commit and tree at the start and the "dirty
// set": every path where the work tree differs from HEAD, each with its work
// tree state (git_work_tree.hpp, git_staged.hpp and, for a watched tree,
// git_watched_pass.hpp say how it is found). A change set needs the dirty
// set now and one tree-to-tree diff, never a walk of the whole history:
//   candidates = (start tree vs HEAD tree now) + dirty now + dirty at start
//   state at start = the dirty-at-start state, else the start tree's entry
//   state now      = the dirty-now state, else the HEAD tree's entry now
// and a candidate whose two states differ is in the change set. Ignored
// files that are not tracked are absent; submodules are left out.

#include <git2.h>

#include <optional>
#include <string>

#include "daemon/git/change_set.hpp"
#include "daemon/git/git_backend.hpp"

namespace mission::daemon::git {

// The snapshot of the work tree holding `cwd`, an existing absolute
// directory; nullopt when there is none (or only a bare repository).
std::optional<Snapshot> take_git_snapshot(const std::string& cwd, GitWork& work);

// `repo` is an open repository with a work tree.
Snapshot take_git_snapshot(git_repository* repo, GitWork& work);

// `start` is a git snapshot (type "git").
ChangeSet compute_git_change_set(const Snapshot& start, GitWork& work);

}  // namespace mission::daemon::git
