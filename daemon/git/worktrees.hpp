#pragma once
// Git worktrees for workspaces (docs/adr/0019): add one on its own branch,
// remove it, tell whether its branch is merged, list what it changes since
// its base, and merge two branches on trial (trees only, nothing written to
// a work tree). libgit2 does the work, in the module (git_backend.hpp).
// Every function blocks: call it on a pool thread. Throws MissionError
// git_error naming what failed.

#include <optional>
#include <string>
#include <vector>

namespace mission::daemon::git {

struct WorktreeSpec {
  std::string repository;  // any path inside the repository
  std::string path;        // the new work tree; must not exist
  std::string branch;      // created at `base`; must not exist
  std::string base;        // a branch, tag or commit; empty: HEAD
  std::string name;        // the worktree's name in .git/worktrees
};

struct WorktreeCreated {
  std::string path;
  std::string branch;
  std::string base_ref;     // the base as a branch name when it is one, else the commit
  std::string base_commit;  // the commit the branch started at
  std::string repository;   // the main work tree
};

WorktreeCreated add_worktree(const WorktreeSpec& spec);

// Removes the worktree `name` (its directory and its entry in the
// repository) and, when `delete_branch`, its branch too.
void remove_worktree(const std::string& repository, const std::string& name,
                     const std::string& branch, bool delete_branch);

// The main work tree of the repository holding `path`, or nullopt outside git.
std::optional<std::string> main_work_tree(const std::string& path);

// Whether `branch` has commits past `base_commit` and its tip is reachable
// from `base_ref`'s tip (it was merged). False when either is gone.
bool branch_merged(const std::string& repository, const std::string& branch,
                   const std::string& base_ref, const std::string& base_commit);

// The paths a work tree changes since `base_commit`: commits on its branch,
// staged and unstaged edits, untracked files, deletions; sorted.
std::vector<std::string> changed_paths(const std::string& work_tree,
                                       const std::string& base_commit);

// One file a work tree changes since its base, with its line counts
// (zero for a binary file).
struct WorkTreeFile {
  std::string path;
  std::string status;                   // added, modified, deleted, renamed, type_changed
  std::optional<std::string> old_path;  // for a rename
  std::size_t additions = 0;
  std::size_t deletions = 0;
  bool binary = false;
};

struct WorkTreeDiff {
  std::vector<WorkTreeFile> files;  // sorted by path
  // The unified diff, cut at the budget it was asked for (empty when none).
  std::string patch;
  bool patch_truncated = false;
};

// What a work tree changes since `base_commit` (commits on its branch,
// staged and unstaged edits, untracked files), file by file; with
// `patch_bytes` > 0 also the unified diff of `paths` (all when empty), at
// most that many bytes, cut at a line.
WorkTreeDiff work_tree_diff(const std::string& work_tree, const std::string& base_commit,
                            const std::vector<std::string>& paths, std::size_t patch_bytes);

// What a task's work brought, in `repository`: the change a merge commit
// `tip` made over its first parent; for any other commit (a fast-forward,
// the tip of a branch not merged) `tip` against `base_commit`. `tip` is a
// commit id or a ref; the patch at most `patch_bytes`, cut at a line.
WorkTreeDiff task_diff(const std::string& repository, const std::string& base_commit,
                       const std::string& tip, std::size_t patch_bytes);

// Whether the work tree has edits not committed (staged, unstaged or
// untracked files); false when it is gone.
bool work_tree_dirty(const std::string& work_tree);

struct TrialMerge {
  bool clean = true;
  std::vector<std::string> conflicts;  // paths, sorted
};

// Merges the trees of two branches' tips over their merge base, in memory.
TrialMerge trial_merge(const std::string& repository, const std::string& ours,
                       const std::string& theirs);

// Commits every edit in the work tree (staged, unstaged, untracked files
// not ignored, deletions) on its checked-out branch, with `message`, as
// git's configured identity or else "mission <mission@localhost>". The new
// commit's id, or nullopt when there was nothing to commit.
std::optional<std::string> commit_work_tree(const std::string& work_tree,
                                            const std::string& message);

struct BranchMerge {
  bool merged = false;                 // `into` now contains `from`
  std::string commit;                  // `into`'s new tip when merged
  std::vector<std::string> conflicts;  // paths, sorted, when not merged
};

// Merges branch `from` into branch `into`, neither checked out anywhere
// that matters: a fast-forward when it can, else a merge commit of the two
// tips with `message`. Only refs and objects are written, and `into` moves
// only if it still points where it did when the merge began (a compare and
// swap), so a conflict or a race never leaves a half-merged tree.
BranchMerge merge_branch(const std::string& repository, const std::string& into,
                         const std::string& from, const std::string& message);

// A merge of branch `from` into branch `into` made ready but not landed:
// its commit is written (a fast-forward's is `from`'s tip; when `into`
// already holds `from`, its own tip) and no ref moves, so the exact tree
// that would land can be checked first (a run's --gate).
struct PlannedMerge {
  std::vector<std::string> conflicts;  // paths, sorted; nothing else is set when any
  std::string onto;                    // `into`'s tip the merge was made on
  std::string commit;                  // what `into` would point at
  std::string tree;                    // that commit's tree id
};
PlannedMerge plan_merge(const std::string& repository, const std::string& into,
                        const std::string& from, const std::string& message);

// Moves `branch` to `commit` if it still points at `expected` (a compare
// and swap); false when it moved meanwhile.
bool advance_branch(const std::string& repository, const std::string& branch,
                    const std::string& commit, const std::string& expected);

// Whether `commit` is `branch`'s tip or one of its ancestors.
bool branch_contains(const std::string& repository, const std::string& branch,
                     const std::string& commit);

// What mission made in a repository, as git sees it: the worktrees whose
// name starts with `name_prefix` and the branches under `branch_prefix`,
// whatever the database says (a daemon killed between git's work and its
// record leaves some behind). For each branch, whether another branch
// holds its tip, so deleting it loses no commit.
struct MadeRefs {
  struct Worktree {
    std::string name;
    std::string path;
    bool dirty = false;  // edits never committed: removing it loses them
  };
  struct Branch {
    std::string name;
    bool held_elsewhere = false;
  };
  std::vector<Worktree> worktrees;
  std::vector<Branch> branches;
};
MadeRefs made_refs(const std::string& repository, const std::string& name_prefix,
                   const std::string& branch_prefix);

// Creates branch `branch` at `start` (a branch, tag or commit; empty: HEAD)
// unless it exists; returns its tip. An existing branch is taken only when
// `adopt` (mission made it earlier); otherwise MissionError invalid_argument.
std::string ensure_branch(const std::string& repository, const std::string& branch,
                          const std::string& start, bool adopt);

// Moves a kept worktree (on a branch of its own) and its branch to
// `commit`, writing only the files that differ between the commit it is on
// and `commit`: the cost follows the change, not the repository's size.
// Unless `known_clean`, what was written there since (edits, deletions,
// untracked and ignored files) is undone first, which reads the status of
// the whole work tree. The number of paths written or removed.
std::size_t move_worktree(const std::string& work_tree, const std::string& commit,
                          bool known_clean);

}  // namespace mission::daemon::git
