#pragma once
// Workspaces (docs/adr/0019): a git worktree on its own branch per task
// that runs beside others, so that parallel tasks never see each other's
// edits; merge detection; and conflicts seen before the merge.
//
// Every operation is split where git work happens: a plan made on the
// loop (reads the store, checks who may), the git work on a pool thread
// (touches no store), and a record made back on the loop in a transaction.
// The MCP tools, the control API and the workflow runner all use these.
// Throws MissionError with a code and a hint.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/git/worktrees.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/page.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "shared/key_style.hpp"

namespace mission::daemon::workspaces {

// The typed requests of the workspace tools (seed 003's words).
struct UpdateRequest {
  std::string id;
  std::optional<WorkspaceStatus> status;
  std::optional<std::string> merge_commit;
};

struct ListRequest {
  std::optional<std::string> workflow_id;
  std::vector<WorkspaceStatus> statuses;  // empty: all but removed
  store::PageRequest page;
};

struct AssignRequest {
  std::string task_id;
  std::string workspace_id;
};

struct ConflictsRequest {
  std::optional<std::string> workflow_id;
};

// One page of workspaces, newest first (all but removed unless asked).
store::Page<store::WorkspaceRow> list(store::Database& db, const ListRequest& request);

// Every worktree mission makes lives in the repository's worktree folder,
// beside its main work tree: <repository>.worktrees/.
inline constexpr std::string_view kWorktreeFolderSuffix = ".worktrees";
// A run's --gate worktrees (docs/adr/0041), beside the others:
// gate-<run id>-<slot>, on mission/gate/<run id>/<slot>. Clean removes
// those of runs that have ended.
inline constexpr std::string_view kGateWorktreePrefix = "gate-";
inline constexpr std::string_view kGateBranchPrefix = "mission/gate/";
std::string worktree_folder(const std::string& main_work_tree);

// What to create. Empty path and branch take the defaults: branch
// mission/<workspace id>, path <repository>.worktrees/<workspace id>. A
// path given must lie inside that folder once symlinks are resolved; a
// branch given must pass branch_name_problem (branch_names.hpp).
struct CreateRequest {
  std::string workflow_id;
  std::optional<std::string> path;
  std::optional<std::string> branch;
  std::optional<std::string> base_branch;
  std::vector<std::string> task_ids;
};

// A creation planned on the loop; `spec` is what the pool thread runs.
struct CreatePlan {
  std::string id;
  std::string workflow_id;
  std::string caller;  // execution id, or empty for a person
  git::WorktreeSpec spec;
  std::vector<std::string> task_ids;
};

// On the loop: checks the workflow, the tasks and who asks (`caller`, an
// execution id; empty: a person or the daemon itself), and picks the
// defaults. Writes nothing.
CreatePlan plan_create(store::Database& db, const std::string& caller,
                       const CreateRequest& request);
// On a pool thread: adds the worktree and its branch; refuses a path
// outside the worktree folder (MissionError invalid_argument).
git::WorktreeCreated run_create(const CreatePlan& plan);
// On the loop, in a transaction: records the workspace and assigns its tasks.
store::WorkspaceRow record_create(store::Database& db, const CreatePlan& plan,
                                  const git::WorktreeCreated& made, std::int64_t now);
// On the loop, for a worktree made that will not be recorded (its run
// ended meanwhile): from now on it is a leftover that clean reconciles.
void abandon_create(const CreatePlan& plan);

// The directory a workflow's work happens in: its registered repository,
// else where it was created.
std::string repository_of(store::Database& db, const store::MissionRow& workflow);

// Whether a claimed or started task of a workflow with
// auto_create_workspaces still needs a workspace of its own.
bool wants_workspace(store::Database& db, const std::string& task_id);

// A workspace whose branch may have been merged into its base.
struct MergeCheck {
  std::string id;
  std::string repository;
  std::string branch;
  std::string base_ref;
  std::string base_commit;
  bool merged = false;
};

// Seed 003's workspace_update: status active, merged or abandoned, and the
// merge commit. Only a writer of the workflow or the workspace's creator.
// Merged is never taken from the caller: git must show the branch merged
// into its base (run_update), or the update is refused.
struct UpdatePlan {
  UpdateRequest request;
  std::vector<MergeCheck> merge;  // one check when merged is asked for
};
// On the loop: checks who asks and the transition. Writes nothing.
UpdatePlan plan_update(store::Database& db, const std::string& caller,
                       const UpdateRequest& request);
// On a pool thread: asks git whether the branch is merged, if asked.
void run_update(UpdatePlan& plan);
// On the loop, in a transaction: records it, or refuses merged with what
// git showed.
void record_update(store::Database& db, const UpdatePlan& plan, std::int64_t now);
// Runs `task_id` in workspace `workspace_id` (same workflow; the task must
// not be in progress: its snapshot is taken where it starts).
void assign(store::Database& db, const std::string& caller, const std::string& task_id,
            const std::string& workspace_id);

nlohmann::json workspace_json(const store::WorkspaceRow& row, KeyStyle style);

// Merge detection: the workspaces that `check` (pool thread) finds merged
// are marked so by `record_merged` (loop).
std::vector<MergeCheck> plan_merge_checks(store::Database& db,
                                          const std::optional<std::string>& workflow_id);
void run_merge_checks(std::vector<MergeCheck>& checks);
void record_merged(store::Database& db, const std::vector<MergeCheck>& checks, std::int64_t now);

// Conflicts seen before the merge, for the active workspaces of a workflow
// (or all): the files two of them both change, from their live change
// sets, and whether their branches merge cleanly (trial merge of trees).
struct ConflictScan {
  struct Entry {
    store::WorkspaceRow workspace;
    std::vector<std::string> changed;  // filled on the pool thread
    std::optional<std::string> error;
  };
  std::optional<std::string> workflow_id;
  std::vector<Entry> entries;
  struct Pair {
    std::size_t a = 0;
    std::size_t b = 0;
    std::vector<std::string> overlapping;
    bool merges_cleanly = true;
    std::vector<std::string> conflicts;
    std::optional<std::string> error;
  };
  std::vector<Pair> pairs;
};
ConflictScan plan_conflicts(store::Database& db, const std::optional<std::string>& workflow_id);
void run_conflicts(ConflictScan& scan);
nlohmann::json conflicts_json(const ConflictScan& scan, KeyStyle style);

// Abandoned worktrees go: workspaces mission made whose status is merged
// or abandoned, or whose workflow has ended, have their worktree removed
// (a merged branch is deleted too, an unmerged one kept) and become
// `removed`.
struct Cleanup {
  struct Entry {
    store::WorkspaceRow workspace;
    bool delete_branch = false;
    std::optional<std::string> error;
  };
  std::vector<Entry> entries;
  // Reconciling git with the rows: in each repository mission made
  // worktrees in, the ws-* worktrees and mission/ws-* branches no live row
  // names (a daemon killed between git's work and its record, or the
  // branches of removed workspaces). A clean worktree goes; a branch goes
  // when another branch holds its commits, and is kept, and said so,
  // when it holds work nowhere else.
  struct Repository {
    std::string path;
    std::set<std::string> live;  // ids of rows not removed (nor removed by this pass)
  };
  std::vector<Repository> repositories;
  // The runs that have ended: their --gate worktrees and branches
  // (gate-<run>-<slot>, mission/gate/<run>/<slot>) go, whatever they hold,
  // for they hold only merges of branches kept elsewhere.
  std::set<std::string> ended_runs;
  bool only_without_rows = false;       // at start-up: only what no row ever named
  std::uint64_t generation = 0;         // of the rows read when it was planned
  std::set<std::string> ever_recorded;  // with only_without_rows: every id a row names
  struct Leftover {
    std::string repository;
    std::string name;  // worktree name, or empty for a branch alone
    std::string path;
    std::string branch;
    bool removed = false;
    std::string why;  // why it was kept, or the error
  };
  std::vector<Leftover> leftovers;
};
Cleanup plan_clean(store::Database& db, const std::optional<std::string>& workflow_id);
// What start-up recovery reconciles: worktrees and branches that no row
// names at all, in every repository mission made worktrees in.
Cleanup plan_recovery(store::Database& db);
// On a pool thread.
void run_clean(Cleanup& cleanup);
nlohmann::json record_clean(store::Database& db, const Cleanup& cleanup, std::int64_t now,
                            KeyStyle style);

}  // namespace mission::daemon::workspaces
