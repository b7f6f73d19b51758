// The git module's half of landing_proof.hpp: a tree comparison, not a
// patch-id. A change "is there" path by path: the tip holds what the
// landing wrote, or something later work wrote over it; it is undone only
// where the tip holds again exactly what the path held before the landing
// (git revert restores that; so does a hand edit that takes the change
// back). A patch-id would call a change missing as soon as a later task
// edited the same lines, and would need every commit since walked.

#include "daemon/git/git_landing_proof.hpp"

#include <algorithm>

#include "daemon/git/libgit2_handles.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git {
namespace {

struct Entry {
  bool present = false;
  git_oid id{};
  std::uint32_t mode = 0;
};

bool same(const Entry& a, const Entry& b) {
  if (a.present != b.present) return false;
  return !a.present || (a.mode == b.mode && git_oid_equal(&a.id, &b.id) != 0);
}

Entry entry_at(git_tree* tree, const std::string& path) {
  Entry out;
  if (tree == nullptr) return out;
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) < 0) {
    git_error_clear();
    return out;
  }
  lg2::TreeEntry owned(raw);
  out.present = true;
  out.id = *git_tree_entry_id(raw);
  out.mode = static_cast<std::uint32_t>(git_tree_entry_filemode(raw));
  return out;
}

git_oid parse_commit(const std::string& hex, const std::string& what) {
  git_oid id;
  if (git_oid_fromstr(&id, hex.c_str()) != 0) {
    throw MissionError(ErrorCode::git_error, what + " '" + hex + "' is not a commit id",
                       "the run's record is damaged; run the workflow again");
  }
  return id;
}

}  // namespace

LandingProof git_prove_landing(const std::string& repository, const std::string& branch,
                               const LandedChange& change) {
  lg2::ensure_initialized();
  lg2::Repository repo = lg2::open_repository(repository);
  if (git_repository_is_worktree(repo.get())) {
    repo = lg2::open_repository(git_repository_commondir(repo.get()));
  }
  LandingProof proof;
  auto tip = lg2::local_branch_tip(repo.get(), branch);
  if (!tip) return proof;
  proof.tip = lg2::oid_hex(*tip);
  git_oid merge = parse_commit(change.merge_commit, "the merge commit");
  proof.reachable =
      git_oid_equal(&*tip, &merge) != 0 || git_graph_descendant_of(repo.get(), &*tip, &merge) == 1;
  if (!proof.reachable) return proof;

  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo.get(), &merge) < 0) {
    lg2::fail("read the merge commit " + change.merge_commit);
  }
  lg2::Commit merged(raw);
  // A merge commit's first parent is the branch before the landing; a
  // fast-forward moved the branch from the task's base to its tip.
  git_oid before;
  if (git_commit_parentcount(merged.get()) >= 2) {
    before = *git_commit_parent_id(merged.get(), 0);
  } else if (!change.base_commit.empty()) {
    before = parse_commit(change.base_commit, "the task's base commit");
  } else if (git_commit_parentcount(merged.get()) == 1) {
    before = *git_commit_parent_id(merged.get(), 0);
  } else {
    return proof;  // a root commit: nothing before it to return to
  }
  lg2::Tree before_tree = lg2::commit_tree(repo.get(), before);
  lg2::Tree merged_tree = lg2::commit_tree(repo.get(), merge);
  lg2::Tree tip_tree = lg2::commit_tree(repo.get(), *tip);

  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  git_diff* raw_diff = nullptr;
  lg2::check(
      git_diff_tree_to_tree(&raw_diff, repo.get(), before_tree.get(), merged_tree.get(), &options),
      "diff the landing's trees");
  lg2::Diff diff(raw_diff);
  for (const std::string& path : lg2::diff_paths(diff.get())) {
    ++proof.changed;
    Entry was = entry_at(before_tree.get(), path);
    Entry now = entry_at(tip_tree.get(), path);
    if (same(was, entry_at(merged_tree.get(), path)) || !same(was, now)) continue;
    ++proof.undone_count;
    if (proof.undone.size() < limits::kMaxChangedPathsShown) proof.undone.push_back(path);
  }
  return proof;
}

}  // namespace mission::daemon::git
