#pragma once
// The libgit2 half of change sets lives in a module, libmission_git.so,
// loaded the first time a task starts or completes in a git work tree.
// libgit2 brings OpenSSL, Kerberos, libssh2 and mbed TLS with it: loaded
// with missiond they cost about 4 MiB of resident memory in a daemon that
// may never take a git snapshot (docs/adr/0007-git-backend-module.md).

#include <optional>
#include <string>

#include "daemon/git/change_set.hpp"
#include "daemon/git/landing_proof.hpp"
#include "daemon/git/snapshot_control.hpp"
#include "daemon/git/trial_merge.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "daemon/git/worktrees.hpp"

namespace mission::daemon::git {

// What one call gives the module: its bounds and cancellation, and the
// watcher's ticket when the tree is (or may become) watched.
struct GitWork {
  SnapshotControl& control;
  WatchTicket* watch = nullptr;
};

// What the module offers. Both may throw MissionError, as the functions in
// change_set.hpp document.
struct GitBackend {
  // A snapshot of the git work tree holding `cwd` (an existing absolute
  // directory); nullopt when there is none, or only a bare repository.
  std::optional<Snapshot> (*take_snapshot)(const std::string& cwd, GitWork& work);
  // `start` is a git snapshot.
  ChangeSet (*compute_change_set)(const Snapshot& start, GitWork& work);
  // Worktrees (worktrees.hpp documents each).
  WorktreeCreated (*add_worktree)(const WorktreeSpec& spec);
  void (*remove_worktree)(const std::string& repository, const std::string& name,
                          const std::string& branch, bool delete_branch);
  std::optional<std::string> (*main_work_tree)(const std::string& path);
  bool (*branch_merged)(const std::string& repository, const std::string& branch,
                        const std::string& base_ref, const std::string& base_commit);
  std::vector<std::string> (*changed_paths)(const std::string& work_tree,
                                            const std::string& base_commit);
  bool (*work_tree_dirty)(const std::string& work_tree);
  WorkTreeDiff (*work_tree_diff)(const std::string& work_tree, const std::string& base_commit,
                                 const std::vector<std::string>& paths, std::size_t patch_bytes);
  WorkTreeDiff (*task_diff)(const std::string& repository, const std::string& base_commit,
                            const std::string& tip, std::size_t patch_bytes);
  TrialMerge (*trial_merge)(const std::string& repository, const std::string& ours,
                            const std::string& theirs);
  std::optional<std::string> (*commit_work_tree)(const std::string& work_tree,
                                                 const std::string& message);
  BranchMerge (*merge_branch)(const std::string& repository, const std::string& into,
                              const std::string& from, const std::string& message);
  PlannedMerge (*plan_merge)(const std::string& repository, const std::string& into,
                             const std::string& from, const std::string& message);
  bool (*advance_branch)(const std::string& repository, const std::string& branch,
                         const std::string& commit, const std::string& expected);
  bool (*branch_contains)(const std::string& repository, const std::string& branch,
                          const std::string& commit);
  MadeRefs (*made_refs)(const std::string& repository, const std::string& name_prefix,
                        const std::string& branch_prefix);
  std::string (*ensure_branch)(const std::string& repository, const std::string& branch,
                               const std::string& start, bool adopt);
  std::size_t (*move_worktree)(const std::string& work_tree, const std::string& commit,
                               bool known_clean);
  LiveCheckResult (*check_live)(const LiveCheckInput& input);
  LandingProof (*prove_landing)(const std::string& repository, const std::string& branch,
                                const LandedChange& change);
};

// The name the module exports, an extern "C" function returning the
// backend, and the file it is in: <dir of the executable>/../lib/mission/,
// in the build tree as once installed.
inline constexpr const char* kGitBackendSymbol = "mission_git_backend";
inline constexpr const char* kGitBackendFile = "libmission_git.so";

// Loads the module once (any thread). Throws MissionError internal naming
// the file and the loader's reason when it cannot.
const GitBackend& git_backend();

}  // namespace mission::daemon::git
