#pragma once
// Owning handles for libgit2 objects, one-time library setup, the
// translation of a libgit2 failure into MissionError git_error, and the few
// reads every git file of the module makes.

#include <git2.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::git::lg2 {

// git_libgit2_init() once per process; the library is never shut down, as
// any thread-pool thread may be in a call at any time.
void ensure_initialized();

// Throws MissionError git_error: "<what>: <libgit2's last error message>".
[[noreturn]] void fail(std::string_view what, std::string hint = {});

inline void check(int rc, std::string_view what) {
  if (rc < 0) fail(what);
}

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* object) const { Free(object); }
};

using Repository = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using Tree = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using TreeEntry = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;
using Commit = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using Index = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using StatusList = std::unique_ptr<git_status_list, Deleter<git_status_list, git_status_list_free>>;
using Diff = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using Patch = std::unique_ptr<git_patch, Deleter<git_patch, git_patch_free>>;
using Config = std::unique_ptr<git_config, Deleter<git_config, git_config_free>>;

std::string oid_hex(const git_oid& oid);

// The repository `path` is in (searching upwards). Throws git_error.
Repository open_repository(const std::string& path);

// The tree of commit `commit_id`. Throws git_error.
Tree commit_tree(git_repository* repo, const git_oid& commit_id);

// The commit local branch `branch` points at; nullopt when there is none.
std::optional<git_oid> local_branch_tip(git_repository* repo, const std::string& branch);

// Every path a delta of `diff` names, old and new, sorted and unique.
std::vector<std::string> diff_paths(git_diff* diff);

}  // namespace mission::daemon::git::lg2
