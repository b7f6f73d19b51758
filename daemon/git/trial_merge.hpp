#pragma once
// Trial merges of live work (docs/adr/0050-conflicts-caught-while-agents-work.md):
// the tasks of a run as their worktrees are now, merged pairwise and each
// against the integration tip, `git merge-tree` style: only the paths both
// sides change since their merge base are merged, file by file in memory,
// and nothing is written (no object, no index, no ref, no work tree). A
// worktree's side of a path is its working file as it is on disk, not what
// it committed: the agents are still writing. Blocks: call on a pool
// thread. Throws MissionError git_error when the repository cannot be read.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mission::daemon::git {

struct LiveSide {
  std::string work_tree;
  std::string base_commit;  // the commit its branch started at
  // The only paths that may differ from the base (the tree's watcher saw
  // nothing else change); nullopt: look at the whole work tree.
  std::optional<std::vector<std::string>> candidates;
};

struct LiveCheckInput {
  std::string repository;
  std::string integration_branch;  // its tip is the third side of every task
  std::vector<LiveSide> sides;
};

struct LiveConflictFound {
  std::size_t a = 0;
  std::optional<std::size_t> b;  // nullopt: the integration tip
  std::string path;
};

struct LiveCheckResult {
  std::string tip;                                // the integration tip merged with
  std::vector<std::vector<std::string>> changed;  // by side, sorted
  std::vector<std::string> errors;                // by side, "" when it was read
  std::vector<LiveConflictFound> conflicts;       // by side, then path
};

// Each side's changed paths, and the paths that do not merge: between two
// sides that both change them, and between a side and the integration
// tip where the tip changed them since the side's base.
LiveCheckResult check_live(const LiveCheckInput& input);

// The module's implementation (git_backend.hpp).
LiveCheckResult git_check_live(const LiveCheckInput& input);

}  // namespace mission::daemon::git
