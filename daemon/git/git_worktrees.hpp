#pragma once
// The libgit2 side of worktrees.hpp, inside the git module; the daemon
// reaches these through git_backend().

#include "daemon/git/worktrees.hpp"

namespace mission::daemon::git {

WorktreeCreated add_git_worktree(const WorktreeSpec& spec);
void remove_git_worktree(const std::string& repository, const std::string& name,
                         const std::string& branch, bool delete_branch);
std::optional<std::string> git_main_work_tree(const std::string& path);
bool git_branch_merged(const std::string& repository, const std::string& branch,
                       const std::string& base_ref, const std::string& base_commit);
std::vector<std::string> git_changed_paths(const std::string& work_tree,
                                           const std::string& base_commit);
bool git_work_tree_dirty(const std::string& work_tree);
WorkTreeDiff git_work_tree_diff(const std::string& work_tree, const std::string& base_commit,
                                const std::vector<std::string>& paths, std::size_t patch_bytes);
WorkTreeDiff git_task_diff(const std::string& repository, const std::string& base_commit,
                           const std::string& tip, std::size_t patch_bytes);
TrialMerge git_trial_merge(const std::string& repository, const std::string& ours,
                           const std::string& theirs);
std::optional<std::string> git_commit_work_tree(const std::string& work_tree,
                                                const std::string& message);
BranchMerge git_merge_branch(const std::string& repository, const std::string& into,
                             const std::string& from, const std::string& message);
PlannedMerge git_plan_merge(const std::string& repository, const std::string& into,
                            const std::string& from, const std::string& message);
bool git_advance_branch(const std::string& repository, const std::string& branch,
                        const std::string& commit, const std::string& expected);
bool git_branch_contains(const std::string& repository, const std::string& branch,
                         const std::string& commit);
MadeRefs git_made_refs(const std::string& repository, const std::string& name_prefix,
                       const std::string& branch_prefix);
std::string git_ensure_branch(const std::string& repository, const std::string& branch,
                              const std::string& start, bool adopt);
std::size_t git_move_worktree(const std::string& work_tree, const std::string& commit,
                              bool known_clean);

}  // namespace mission::daemon::git
