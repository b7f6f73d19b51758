#include "daemon/git/libgit2_handles.hpp"

#include <mutex>
#include <set>

#include "shared/error_code.hpp"

namespace mission::daemon::git::lg2 {

void ensure_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

void fail(std::string_view what, std::string hint) {
  // git_error_last() is per thread, so this reads the failure of this call.
  const git_error* last = git_error_last();
  std::string message = "git: " + std::string(what);
  if (last != nullptr && last->message != nullptr) message += std::string(": ") + last->message;
  if (hint.empty()) hint = "check that the repository is readable and not corrupt, then retry";
  throw MissionError(ErrorCode::git_error, message, hint);
}

std::string oid_hex(const git_oid& oid) {
  char buffer[GIT_OID_HEXSZ];
  git_oid_fmt(buffer, &oid);
  return std::string(buffer, GIT_OID_HEXSZ);
}

Repository open_repository(const std::string& path) {
  ensure_initialized();
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, path.c_str(), 0, nullptr),
        "cannot open a repository at " + path);
  return Repository(raw);
}

Tree commit_tree(git_repository* repo, const git_oid& commit_id) {
  git_commit* commit = nullptr;
  check(git_commit_lookup(&commit, repo, &commit_id), "cannot read commit " + oid_hex(commit_id));
  Commit owned(commit);
  git_tree* tree = nullptr;
  check(git_commit_tree(&tree, commit), "cannot read the tree of " + oid_hex(commit_id));
  return Tree(tree);
}

std::optional<git_oid> local_branch_tip(git_repository* repo, const std::string& branch) {
  git_reference* raw = nullptr;
  if (git_branch_lookup(&raw, repo, branch.c_str(), GIT_BRANCH_LOCAL) < 0) return std::nullopt;
  const std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>> ref(raw);
  git_reference* resolved = nullptr;
  if (git_reference_resolve(&resolved, ref.get()) < 0) return std::nullopt;
  const git_oid oid = *git_reference_target(resolved);
  git_reference_free(resolved);
  return oid;
}

std::vector<std::string> diff_paths(git_diff* diff) {
  std::set<std::string> paths;
  const std::size_t count = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    if (delta->new_file.path) paths.insert(delta->new_file.path);
    if (delta->old_file.path) paths.insert(delta->old_file.path);
  }
  return {paths.begin(), paths.end()};
}

}  // namespace mission::daemon::git::lg2
