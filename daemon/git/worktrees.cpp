#include "daemon/git/worktrees.hpp"

#include "daemon/git/git_backend.hpp"
#include "daemon/git/trial_merge.hpp"

namespace mission::daemon::git {

WorktreeCreated add_worktree(const WorktreeSpec& spec) {
  return git_backend().add_worktree(spec);
}

void remove_worktree(const std::string& repository, const std::string& name,
                     const std::string& branch, bool delete_branch) {
  git_backend().remove_worktree(repository, name, branch, delete_branch);
}

std::optional<std::string> main_work_tree(const std::string& path) {
  return git_backend().main_work_tree(path);
}

bool branch_merged(const std::string& repository, const std::string& branch,
                   const std::string& base_ref, const std::string& base_commit) {
  return git_backend().branch_merged(repository, branch, base_ref, base_commit);
}

WorkTreeDiff work_tree_diff(const std::string& work_tree, const std::string& base_commit,
                            const std::vector<std::string>& paths, std::size_t patch_bytes) {
  return git_backend().work_tree_diff(work_tree, base_commit, paths, patch_bytes);
}

WorkTreeDiff task_diff(const std::string& repository, const std::string& base_commit,
                       const std::string& tip, std::size_t patch_bytes) {
  return git_backend().task_diff(repository, base_commit, tip, patch_bytes);
}

std::vector<std::string> changed_paths(const std::string& work_tree,
                                       const std::string& base_commit) {
  return git_backend().changed_paths(work_tree, base_commit);
}

bool work_tree_dirty(const std::string& work_tree) {
  return git_backend().work_tree_dirty(work_tree);
}

MadeRefs made_refs(const std::string& repository, const std::string& name_prefix,
                   const std::string& branch_prefix) {
  return git_backend().made_refs(repository, name_prefix, branch_prefix);
}

LiveCheckResult check_live(const LiveCheckInput& input) {
  return git_backend().check_live(input);
}

TrialMerge trial_merge(const std::string& repository, const std::string& ours,
                       const std::string& theirs) {
  return git_backend().trial_merge(repository, ours, theirs);
}

std::optional<std::string> commit_work_tree(const std::string& work_tree,
                                            const std::string& message) {
  return git_backend().commit_work_tree(work_tree, message);
}

BranchMerge merge_branch(const std::string& repository, const std::string& into,
                         const std::string& from, const std::string& message) {
  return git_backend().merge_branch(repository, into, from, message);
}

PlannedMerge plan_merge(const std::string& repository, const std::string& into,
                        const std::string& from, const std::string& message) {
  return git_backend().plan_merge(repository, into, from, message);
}

bool advance_branch(const std::string& repository, const std::string& branch,
                    const std::string& commit, const std::string& expected) {
  return git_backend().advance_branch(repository, branch, commit, expected);
}

bool branch_contains(const std::string& repository, const std::string& branch,
                     const std::string& commit) {
  return git_backend().branch_contains(repository, branch, commit);
}

std::string ensure_branch(const std::string& repository, const std::string& branch,
                          const std::string& start, bool adopt) {
  return git_backend().ensure_branch(repository, branch, start, adopt);
}

std::size_t move_worktree(const std::string& work_tree, const std::string& commit,
                          bool known_clean) {
  return git_backend().move_worktree(work_tree, commit, known_clean);
}

}  // namespace mission::daemon::git
