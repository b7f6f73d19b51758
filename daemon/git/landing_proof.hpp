#pragma once
// Whether a task's landed change is still on a branch
// (docs/adr/0041-verified-landing.md, "Proof of landing"): its merge
// commit is reachable from the branch, and no path the merge changed is
// back to what it was before the merge. Plain types: the daemon and the git
// module (libmission_git.so) both use them.

#include <string>
#include <vector>

namespace mission::daemon::git {

// One landed change to prove: the commit the landing moved the branch to
// (a merge commit, or the task's own tip for a fast-forward) and the
// commit the task's branch started at (the "before" of a fast-forward).
struct LandedChange {
  std::string merge_commit;
  std::string base_commit;
};

struct LandingProof {
  // The branch's tip now ("" when the branch is gone).
  std::string tip;
  // The merge commit is the tip or one of its ancestors.
  bool reachable = false;
  // Paths the landing changed whose content on the tip is what it was
  // before the landing (a revert, or a change undone by hand), sorted, at
  // most limits::kMaxChangedPathsShown; `undone_count` counts them all.
  std::vector<std::string> undone;
  std::size_t undone_count = 0;
  // Paths the landing changed.
  std::size_t changed = 0;
};

// Runs on a pool thread. Throws MissionError git_error when the repository
// cannot be read or `change.merge_commit` is not in it.
LandingProof prove_landing(const std::string& repository, const std::string& branch,
                           const LandedChange& change);

}  // namespace mission::daemon::git
