// libgit2 implementation of move_worktree (worktrees.hpp), in the git
// module: a kept worktree brought to another commit by writing only the
// files that differ, so its cost follows the change and not the
// repository's size.

#include <filesystem>
#include <set>
#include <system_error>
#include <vector>

#include "daemon/git/git_worktrees.hpp"
#include "daemon/git/libgit2_handles.hpp"

namespace mission::daemon::git {
namespace {

using Reference = std::unique_ptr<git_reference, lg2::Deleter<git_reference, git_reference_free>>;

lg2::Tree tree_of_commit(git_repository* repo, const git_oid& id) {
  git_commit* commit = nullptr;
  lg2::check(git_commit_lookup(&commit, repo, &id), "cannot read commit " + lg2::oid_hex(id));
  lg2::Commit owned(commit);
  git_tree* tree = nullptr;
  lg2::check(git_commit_tree(&tree, commit), "cannot read the tree of " + lg2::oid_hex(id));
  return lg2::Tree(tree);
}

// What was written into the work tree since its last checkout: tracked
// files changed or deleted (restored by the checkout, so they go in
// `restore`) and files git does not track, ignored ones included (a gate's
// build output), removed here. Untracked and ignored folders are reported
// and removed whole, not walked.
void undo_writes(git_repository* repo, const std::string& work_tree,
                 std::set<std::string>& restore) {
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_INCLUDE_IGNORED |
                  GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  git_status_list* raw = nullptr;
  lg2::check(git_status_list_new(&raw, repo, &options), "cannot read the status of " + work_tree);
  lg2::StatusList list(raw);
  const std::size_t count = git_status_list_entrycount(list.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_status_entry* entry = git_status_byindex(list.get(), i);
    const git_diff_delta* delta =
        entry->index_to_workdir ? entry->index_to_workdir : entry->head_to_index;
    if (delta == nullptr) continue;
    const char* path = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
    if (path == nullptr) continue;
    if (entry->status & (GIT_STATUS_WT_NEW | GIT_STATUS_IGNORED)) {
      std::error_code ignored;
      std::filesystem::remove_all(std::filesystem::path(work_tree) / path, ignored);
      continue;
    }
    restore.insert(path);
    if (delta->old_file.path) restore.insert(delta->old_file.path);
  }
}

}  // namespace

std::size_t git_move_worktree(const std::string& work_tree, const std::string& commit,
                              bool known_clean) {
  lg2::ensure_initialized();
  git_repository* raw_repo = nullptr;
  lg2::check(git_repository_open(&raw_repo, work_tree.c_str()),
             "cannot open the worktree at " + work_tree);
  lg2::Repository repo(raw_repo);
  git_reference* raw_head = nullptr;
  lg2::check(git_repository_head(&raw_head, repo.get()),
             "the worktree at " + work_tree + " has no HEAD");
  Reference head(raw_head);
  if (!git_reference_is_branch(head.get()))
    lg2::fail("the worktree at " + work_tree + " is not on a branch");
  git_oid target;
  lg2::check(git_oid_fromstr(&target, commit.c_str()), "bad commit " + commit);
  lg2::Tree from = tree_of_commit(repo.get(), *git_reference_target(head.get()));
  lg2::Tree to = tree_of_commit(repo.get(), target);

  std::set<std::string> paths;
  if (!known_clean) undo_writes(repo.get(), work_tree, paths);
  // Trees share the subtrees they have in common: this diff reads only
  // the folders that changed.
  git_diff* raw_diff = nullptr;
  lg2::check(git_diff_tree_to_tree(&raw_diff, repo.get(), from.get(), to.get(), nullptr),
             "cannot compare the trees of " + work_tree + " and " + commit);
  lg2::Diff diff(raw_diff);
  const std::size_t deltas = git_diff_num_deltas(diff.get());
  for (std::size_t i = 0; i < deltas; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    if (delta->old_file.path) paths.insert(delta->old_file.path);
    if (delta->new_file.path) paths.insert(delta->new_file.path);
  }

  if (!paths.empty()) {
    // Only these paths are looked at and written: the iterators skip every
    // folder that holds none of them.
    std::vector<const char*> listed;
    listed.reserve(paths.size());
    for (const std::string& path : paths) listed.push_back(path.c_str());
    git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
    options.checkout_strategy =
        GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
    options.paths = {const_cast<char**>(listed.data()), listed.size()};
    options.baseline = from.get();
    lg2::check(
        git_checkout_tree(repo.get(), reinterpret_cast<const git_object*>(to.get()), &options),
        "cannot check out " + commit + " in " + work_tree);
  }
  git_reference* moved = nullptr;
  lg2::check(git_reference_set_target(&moved, head.get(), &target, "mission: gate moved"),
             "cannot move the branch of " + work_tree + " to " + commit);
  git_reference_free(moved);
  return paths.size();
}

}  // namespace mission::daemon::git
