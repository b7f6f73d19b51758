// The entry point of libmission_git.so (see git_backend.hpp).

#include "daemon/git/git_backend.hpp"
#include "daemon/git/git_landing_proof.hpp"
#include "daemon/git/git_snapshot.hpp"
#include "daemon/git/git_worktrees.hpp"
#include "daemon/git/trial_merge.hpp"

extern "C" __attribute__((visibility("default"))) const mission::daemon::git::GitBackend*
mission_git_backend() {
  static const mission::daemon::git::GitBackend kBackend{
      mission::daemon::git::take_git_snapshot,  mission::daemon::git::compute_git_change_set,
      mission::daemon::git::add_git_worktree,   mission::daemon::git::remove_git_worktree,
      mission::daemon::git::git_main_work_tree, mission::daemon::git::git_branch_merged,
      mission::daemon::git::git_changed_paths,  mission::daemon::git::git_work_tree_dirty,
      mission::daemon::git::git_work_tree_diff, mission::daemon::git::git_task_diff,
      mission::daemon::git::git_trial_merge,    mission::daemon::git::git_commit_work_tree,
      mission::daemon::git::git_merge_branch,   mission::daemon::git::git_plan_merge,
      mission::daemon::git::git_advance_branch, mission::daemon::git::git_branch_contains,
      mission::daemon::git::git_made_refs,      mission::daemon::git::git_ensure_branch,
      mission::daemon::git::git_move_worktree,  mission::daemon::git::git_check_live,
      mission::daemon::git::git_prove_landing,
  };
  return &kBackend;
}
