// Workspaces (docs/adr/0019): see workspaces.hpp.

#include "daemon/workspaces/workspaces.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "daemon/sandbox/profile.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/ownership.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/required_rows.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/workspaces/branch_names.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::workspaces {

// The sandbox hides the worktree folder from every agent but its own
// worktree; it sits below this layer, so it holds the name too.
static_assert(kWorktreeFolderSuffix == sandbox::kWorktreeFolderSuffix);

namespace {

store::MissionRow require_workflow(store::Database& db, const std::string& id) {
  return store::require_mission(db, id, "workflow_id", "workflow_list shows the workflows");
}

store::TaskRow require_task(store::Database& db, const std::string& id) {
  return store::require_task(db, id, "task_id",
                             "workflow_get with include_tasks lists a workflow's tasks");
}

store::WorkspaceRow require_workspace(store::Database& db, const std::string& id) {
  auto row = store::WorkspaceRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "workspace '" + id + "' does not exist",
                       "workspace_list shows a workflow's workspaces", {{"id", id}});
  }
  return *row;
}

}  // namespace

namespace {

// Workspaces being made now, and those recorded while a reconciliation
// runs. A worktree exists before its row does (git works on the pool, the
// row is written after), and a reconciliation judges git against the rows
// it read when it was planned: a workspace made in between is neither a
// row it knows nor a leftover. Shared by the loop and the pool's threads.
struct Creations {
  std::mutex mutex;
  std::set<std::string> in_flight;
  // Recorded since a running reconciliation read its rows, by generation.
  std::map<std::string, std::uint64_t> recorded;
  std::uint64_t generation = 0;
  std::size_t reconciling = 0;
};

Creations& creations() {
  static Creations state;
  return state;
}

void note_creation(const std::string& id) {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.in_flight.insert(id);
}

// A creation that failed, before or after git made anything: what it left
// is a leftover like any other.
void forget_creation(const std::string& id) {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.in_flight.erase(id);
}

void note_recorded(const std::string& id) {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.in_flight.erase(id);
  if (c.reconciling > 0) c.recorded[id] = ++c.generation;
}

// A reconciliation begins (on the loop, with the rows it reads): its
// generation. With none other running, what was recorded is in those rows.
std::uint64_t begin_reconciling() {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.reconciling++ == 0) c.recorded.clear();
  return c.generation;
}

void end_reconciling() {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.reconciling > 0) --c.reconciling;
}

// Whether `id` is being made, or was recorded after generation `since`.
bool made_since(const std::string& id, std::uint64_t since) {
  Creations& c = creations();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.in_flight.contains(id)) return true;
  auto found = c.recorded.find(id);
  return found != c.recorded.end() && found->second > since;
}

constexpr std::string_view kWorkspaceIdPrefix = "ws-";

std::string branch_prefix() {
  return std::string(kMissionBranchPrefix) + std::string(kWorkspaceIdPrefix);
}

// The repositories mission made worktrees in, with the ids of the rows in
// each that are still live; every id ever recorded into `recorded` when
// given.
std::vector<Cleanup::Repository> made_in(store::Database& db,
                                         const std::vector<Cleanup::Entry>& removing,
                                         std::set<std::string>* recorded = nullptr) {
  std::set<std::string> going;
  for (const auto& entry : removing) going.insert(entry.workspace.id);
  std::map<std::string, Cleanup::Repository> by_path;
  for (const auto& row : store::WorkspaceRepository(db).in_statuses(
           std::nullopt, {WorkspaceStatus::active, WorkspaceStatus::merged,
                          WorkspaceStatus::abandoned, WorkspaceStatus::removed})) {
    if (recorded != nullptr) recorded->insert(row.id);
    if (!row.owned || row.repository.empty()) continue;
    Cleanup::Repository& repository = by_path[row.repository];
    repository.path = row.repository;
    if (row.status != WorkspaceStatus::removed && !going.contains(row.id))
      repository.live.insert(row.id);
  }
  std::vector<Cleanup::Repository> out;
  for (auto& [path, repository] : by_path) out.push_back(std::move(repository));
  return out;
}

std::set<std::string> ended_runs(store::Database& db) {
  std::vector<std::string> ids = store::RunRepository(db).ended_ids();
  return {ids.begin(), ids.end()};
}

}  // namespace

std::string repository_of(store::Database& db, const store::MissionRow& workflow) {
  store::PlanRepository plans(db);
  if (auto plan = plans.workflow_plan(workflow.id); plan && plan->repository_id) {
    if (auto repository = plans.repository(*plan->repository_id)) return repository->path;
  }
  return workflow.cwd;
}

CreatePlan plan_create(store::Database& db, const std::string& caller,
                       const CreateRequest& request) {
  store::MissionRow workflow = require_workflow(db, request.workflow_id);
  if (is_final(workflow.status)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + workflow.id + " has ended (" + std::string(name_of(workflow.status)) + ")",
        "workspaces are for work still to do", {{"workflow_id", workflow.id}});
  }
  bool may = caller.empty();
  for (const auto& task_id : request.task_ids) {
    store::TaskRow task = require_task(db, task_id);
    if (task.mission_id != workflow.id) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "task " + task_id + " belongs to " + task.mission_id + ", not " + workflow.id,
          "give tasks of the workspace's workflow", {{"task_id", task_id}});
    }
    if (task.status == TaskStatus::in_progress) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "task " + task_id + " is in progress: its snapshot was taken where it started",
          "assign a workspace before start_task", {{"task_id", task_id}});
    }
    if (!caller.empty()) store::require_task_writer(db, caller, task);
    may = true;
  }
  if (!may) store::require_mission_writer(db, caller, workflow);
  CreatePlan plan;
  plan.id = new_random_id(kWorkspaceIdPrefix, 10);
  plan.workflow_id = workflow.id;
  plan.caller = caller;
  plan.task_ids = request.task_ids;
  plan.spec.repository = repository_of(db, workflow);
  plan.spec.branch = request.branch.value_or(std::string(kMissionBranchPrefix) + plan.id + "/" +
                                             std::string(kWorkspaceBranchLeaf));
  if (request.branch) {
    if (std::string problem = branch_name_problem(*request.branch); !problem.empty()) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "branch '" + *request.branch + "' cannot be used: " + problem,
          "name a branch of your own such as feature/login, with letters, digits, '-', '_', '.' "
          "and '/', or leave branch out for mission's own",
          {{"field", "branch"}});
    }
  }
  plan.spec.base = request.base_branch.value_or("");
  plan.spec.name = plan.id;
  if (request.path) {
    std::filesystem::path path(*request.path);
    if (!path.is_absolute()) {
      throw MissionError(
          ErrorCode::invalid_argument, "path '" + *request.path + "' is not absolute",
          "give an absolute path that does not exist yet, or leave path out", {{"field", "path"}});
    }
    // Where it may go is known only once git has found the repository's
    // worktree folder (run_create); the name can be judged now.
    const std::filesystem::path normal = path.lexically_normal();
    if (normal.filename().empty() || normal.filename() == "." || normal.filename() == "..") {
      throw MissionError(ErrorCode::invalid_argument,
                         "path '" + *request.path + "' names no new folder",
                         "give a path inside the repository's worktree folder, or leave path out",
                         {{"field", "path"}});
    }
    plan.spec.path = normal.string();
    if (store::WorkspaceRepository(db).find_by_path(plan.spec.path)) {
      throw MissionError(ErrorCode::duplicate, "a workspace at " + plan.spec.path + " exists",
                         "workspace_list shows it; choose another path", {{"field", "path"}});
    }
  }
  return plan;
}

std::string worktree_folder(const std::string& main_work_tree) {
  return main_work_tree + std::string(kWorktreeFolderSuffix);
}

namespace {

git::WorktreeCreated make_worktree(const CreatePlan& plan) {
  namespace fs = std::filesystem;
  git::WorktreeSpec spec = plan.spec;
  auto root = git::main_work_tree(spec.repository);
  if (!root) {
    throw MissionError(ErrorCode::invalid_argument, spec.repository + " is not in a git work tree",
                       "workspaces are git worktrees: run the workflow in a git repository",
                       {{"repository", spec.repository}});
  }
  const fs::path folder = worktree_folder(*root);
  if (spec.path.empty()) spec.path = (folder / plan.id).string();
  std::error_code error;
  if (fs::exists(fs::symlink_status(spec.path, error))) {
    throw MissionError(ErrorCode::invalid_argument, spec.path + " exists",
                       "give a path that does not exist yet, or leave path out",
                       {{"field", "path"}});
  }
  fs::create_directories(folder, error);
  // Judged on real paths, after every symlink on the way: a worktree goes
  // inside the repository's worktree folder and nowhere else (not into
  // .git, not into another repository's config, not across a symlink).
  const fs::path real_folder = fs::canonical(folder, error);
  const fs::path parent = fs::path(spec.path).parent_path();
  if (!error) fs::create_directories(parent, error);
  const fs::path real_parent = error ? fs::path() : fs::canonical(parent, error);
  const auto inside = [&] {
    if (error) return false;
    auto [end, rest] = std::mismatch(real_folder.begin(), real_folder.end(), real_parent.begin(),
                                     real_parent.end());
    return end == real_folder.end();
  };
  if (!inside()) {
    throw MissionError(
        ErrorCode::invalid_argument,
        spec.path + " is outside the repository's worktree folder " + folder.string(),
        "leave path out, or give a new folder inside " + folder.string(), {{"field", "path"}});
  }
  spec.path = (real_parent / fs::path(spec.path).filename()).string();
  git::WorktreeCreated made = git::add_worktree(spec);
  faults::at(faults::FaultPoint::worktree_made);
  return made;
}

}  // namespace

git::WorktreeCreated run_create(const CreatePlan& plan) {
  // Noted before git makes anything, so that a reconciliation never takes
  // this worktree for a leftover while it is being made.
  note_creation(plan.id);
  try {
    return make_worktree(plan);
  } catch (...) {
    forget_creation(plan.id);
    throw;
  }
}

store::WorkspaceRow record_create(store::Database& db, const CreatePlan& plan,
                                  const git::WorktreeCreated& made, std::int64_t now) {
  store::WorkspaceRow row;
  row.id = plan.id;
  row.workflow_id = plan.workflow_id;
  row.path = made.path;
  row.branch = made.branch;
  row.base_branch = made.base_ref;
  row.base_commit = made.base_commit;
  row.repository = made.repository;
  row.status = WorkspaceStatus::active;
  row.owned = true;
  if (!plan.caller.empty()) row.execution_id = plan.caller;
  row.created_at = row.updated_at = now;
  store::WorkspaceRepository workspaces(db);
  try {
    workspaces.insert(row);
    for (const auto& task_id : plan.task_ids) workspaces.assign(task_id, row.id);
  } catch (...) {
    forget_creation(row.id);
    throw;
  }
  note_recorded(row.id);
  row.task_ids = plan.task_ids;
  return row;
}

void abandon_create(const CreatePlan& plan) {
  forget_creation(plan.id);
}

bool wants_workspace(store::Database& db, const std::string& task_id) {
  auto task = store::PlanRepository(db).task(task_id);
  if (!task || !task->plan_order || task->status == TaskStatus::in_progress) return false;
  if (store::WorkspaceRepository(db).of_task(task_id)) return false;
  auto plan = store::PlanRepository(db).workflow_plan(task->mission_id);
  return plan && plan->auto_create_workspaces;
}

UpdatePlan plan_update(store::Database& db, const std::string& caller,
                       const UpdateRequest& request) {
  store::WorkspaceRow row = require_workspace(db, request.id);
  if (!caller.empty() && row.execution_id != caller) {
    store::require_mission_writer(db, caller, require_workflow(db, row.workflow_id));
  }
  if (request.status == WorkspaceStatus::removed) {
    throw MissionError(
        ErrorCode::invalid_argument, "status removed is set by mission workspaces clean",
        "set abandoned; mission workspaces clean then removes its worktree", {{"field", "status"}});
  }
  if (row.status == WorkspaceStatus::removed) {
    throw MissionError(ErrorCode::invalid_argument, "workspace " + request.id + " was removed",
                       "create a new workspace", {{"id", request.id}});
  }
  UpdatePlan plan;
  plan.request = request;
  if (request.status == WorkspaceStatus::merged) {
    if (!row.base_branch || !row.base_commit) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "workspace " + row.id + " has no base recorded, so mission cannot tell it merged",
          "set abandoned once its work is in, or leave it active", {{"field", "status"}});
    }
    plan.merge.push_back(
        {row.id, row.repository, row.branch, *row.base_branch, *row.base_commit, false});
  }
  return plan;
}

void run_update(UpdatePlan& plan) {
  run_merge_checks(plan.merge);
}

void record_update(store::Database& db, const UpdatePlan& plan, std::int64_t now) {
  const UpdateRequest& request = plan.request;
  store::WorkspaceRow row = require_workspace(db, request.id);
  if (!plan.merge.empty() && !plan.merge.front().merged) {
    const MergeCheck& check = plan.merge.front();
    throw MissionError(
        ErrorCode::invalid_argument,
        "branch " + check.branch + " of workspace " + row.id + " is not merged into " +
            check.base_ref + ": git shows commits on it that " + check.base_ref + " does not hold",
        "merge it first (mission marks it merged by itself once git shows it), or set abandoned",
        {{"field", "status"}, {"branch", check.branch}, {"base_branch", check.base_ref}});
  }
  // A merge commit is kept only beside a merge git confirmed.
  const std::optional<std::string> merge_commit =
      request.status == WorkspaceStatus::merged ? request.merge_commit : std::nullopt;
  store::WorkspaceRepository(db).set_status(row.id, request.status.value_or(row.status),
                                            merge_commit, now);
}

void assign(store::Database& db, const std::string& caller, const std::string& task_id,
            const std::string& workspace_id) {
  store::TaskRow task = require_task(db, task_id);
  store::WorkspaceRow workspace = require_workspace(db, workspace_id);
  if (!caller.empty()) store::require_task_writer(db, caller, task);
  if (task.mission_id != workspace.workflow_id) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task_id + " belongs to " + task.mission_id + ", workspace " +
                           workspace_id + " to " + workspace.workflow_id,
                       "assign a workspace of the task's own workflow", {{"task_id", task_id}});
  }
  if (workspace.status != WorkspaceStatus::active) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workspace " + workspace_id + " is " + std::string(name_of(workspace.status)),
        "assign an active workspace; workspace_create makes one", {{"workspace_id", workspace_id}});
  }
  if (task.status == TaskStatus::in_progress) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "task " + task_id + " is in progress: its snapshot was taken where it started",
        "assign a workspace before start_task", {{"task_id", task_id}});
  }
  store::WorkspaceRepository(db).assign(task_id, workspace_id);
}

nlohmann::json workspace_json(const store::WorkspaceRow& row, KeyStyle style) {
  nlohmann::json out = {{"id", row.id},
                        {key(style, "workflow_id"), row.workflow_id},
                        {"path", row.path},
                        {"branch", row.branch},
                        {key(style, "base_branch"),
                         row.base_branch ? nlohmann::json(*row.base_branch) : nlohmann::json()},
                        {key(style, "base_commit"),
                         row.base_commit ? nlohmann::json(*row.base_commit) : nlohmann::json()},
                        {"status", row.status},
                        {key(style, "task_ids"), row.task_ids},
                        {key(style, "created_at"), format_utc_iso8601(row.created_at)},
                        {key(style, "updated_at"), format_utc_iso8601(row.updated_at)}};
  if (row.merge_commit) out[key(style, "merge_commit")] = *row.merge_commit;
  return out;
}

store::Page<store::WorkspaceRow> list(store::Database& db, const ListRequest& request) {
  std::vector<WorkspaceStatus> statuses = request.statuses;
  if (statuses.empty())
    statuses = {WorkspaceStatus::active, WorkspaceStatus::merged, WorkspaceStatus::abandoned};
  return store::WorkspaceRepository(db).page(request.workflow_id, statuses, request.page);
}

std::vector<MergeCheck> plan_merge_checks(store::Database& db,
                                          const std::optional<std::string>& workflow_id) {
  std::vector<MergeCheck> checks;
  for (const auto& row :
       store::WorkspaceRepository(db).in_statuses(workflow_id, {WorkspaceStatus::active})) {
    if (!row.base_branch || !row.base_commit) continue;
    checks.push_back(
        {row.id, row.repository, row.branch, *row.base_branch, *row.base_commit, false});
  }
  return checks;
}

void run_merge_checks(std::vector<MergeCheck>& checks) {
  for (auto& check : checks) {
    try {
      check.merged =
          git::branch_merged(check.repository, check.branch, check.base_ref, check.base_commit);
    } catch (const std::exception&) {
      check.merged = false;  // a repository gone or unreadable: not known to be merged
    }
  }
}

void record_merged(store::Database& db, const std::vector<MergeCheck>& checks, std::int64_t now) {
  store::WorkspaceRepository workspaces(db);
  for (const auto& check : checks) {
    if (check.merged) workspaces.set_status(check.id, WorkspaceStatus::merged, std::nullopt, now);
  }
}

ConflictScan plan_conflicts(store::Database& db, const std::optional<std::string>& workflow_id) {
  if (workflow_id) require_workflow(db, *workflow_id);
  ConflictScan scan;
  scan.workflow_id = workflow_id;
  for (auto& row :
       store::WorkspaceRepository(db).in_statuses(workflow_id, {WorkspaceStatus::active})) {
    if (scan.entries.size() == limits::kMaxConflictWorkspaces) break;
    scan.entries.push_back({std::move(row), {}, std::nullopt});
  }
  return scan;
}

void run_conflicts(ConflictScan& scan) {
  for (auto& entry : scan.entries) {
    try {
      if (!entry.workspace.base_commit) throw std::runtime_error("no base commit recorded");
      entry.changed = git::changed_paths(entry.workspace.path, *entry.workspace.base_commit);
    } catch (const std::exception& e) {
      entry.error = e.what();
    }
  }
  for (std::size_t a = 0; a < scan.entries.size(); ++a) {
    for (std::size_t b = a + 1; b < scan.entries.size(); ++b) {
      const auto& left = scan.entries[a];
      const auto& right = scan.entries[b];
      if (left.workspace.repository != right.workspace.repository) continue;
      ConflictScan::Pair pair;
      pair.a = a;
      pair.b = b;
      std::set_intersection(left.changed.begin(), left.changed.end(), right.changed.begin(),
                            right.changed.end(), std::back_inserter(pair.overlapping));
      try {
        git::TrialMerge merge = git::trial_merge(left.workspace.repository, left.workspace.branch,
                                                 right.workspace.branch);
        pair.merges_cleanly = merge.clean;
        pair.conflicts = std::move(merge.conflicts);
      } catch (const std::exception& e) {
        pair.error = e.what();
      }
      scan.pairs.push_back(std::move(pair));
    }
  }
}

nlohmann::json conflicts_json(const ConflictScan& scan, KeyStyle style) {
  auto bounded = [](const std::vector<std::string>& paths) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& path : paths) {
      if (out.size() == limits::kMaxChangedPathsShown) break;
      out.push_back(path);
    }
    return out;
  };
  nlohmann::json workspaces = nlohmann::json::array();
  for (const auto& entry : scan.entries) {
    nlohmann::json item = {{"id", entry.workspace.id},
                           {"branch", entry.workspace.branch},
                           {"path", entry.workspace.path},
                           {key(style, "task_ids"), entry.workspace.task_ids},
                           {key(style, "changed_files"), bounded(entry.changed)},
                           {key(style, "changed_count"), entry.changed.size()}};
    if (entry.error) item["error"] = *entry.error;
    workspaces.push_back(std::move(item));
  }
  nlohmann::json pairs = nlohmann::json::array();
  std::size_t conflicting = 0;
  for (const auto& pair : scan.pairs) {
    if (!pair.overlapping.empty() || !pair.merges_cleanly || pair.error) {
      nlohmann::json item = {
          {"workspaces", {scan.entries[pair.a].workspace.id, scan.entries[pair.b].workspace.id}},
          {key(style, "overlapping_files"), bounded(pair.overlapping)},
          {key(style, "merges_cleanly"), pair.merges_cleanly},
          {key(style, "conflicting_files"), bounded(pair.conflicts)}};
      if (pair.error) item["error"] = *pair.error;
      pairs.push_back(std::move(item));
    }
    if (!pair.merges_cleanly) ++conflicting;
  }
  nlohmann::json out = {{"workspaces", std::move(workspaces)},
                        {"pairs", std::move(pairs)},
                        {key(style, "pairs_checked"), scan.pairs.size()},
                        {key(style, "conflicting_pairs"), conflicting}};
  if (scan.workflow_id) out[key(style, "workflow_id")] = *scan.workflow_id;
  return out;
}

Cleanup plan_recovery(store::Database& db) {
  Cleanup cleanup;
  cleanup.only_without_rows = true;
  cleanup.repositories = made_in(db, {}, &cleanup.ever_recorded);
  cleanup.ended_runs = ended_runs(db);
  cleanup.generation = begin_reconciling();
  return cleanup;
}

Cleanup plan_clean(store::Database& db, const std::optional<std::string>& workflow_id) {
  Cleanup cleanup;
  store::MissionRepository missions(db);
  for (auto& row : store::WorkspaceRepository(db).in_statuses(
           workflow_id,
           {WorkspaceStatus::active, WorkspaceStatus::merged, WorkspaceStatus::abandoned})) {
    if (!row.owned) continue;
    bool gone = row.status != WorkspaceStatus::active;
    if (!gone) {
      auto workflow = missions.find(row.workflow_id);
      gone = !workflow || is_final(workflow->status);
    }
    if (!gone) continue;
    cleanup.entries.push_back({std::move(row), false, std::nullopt});  // run_clean asks git
  }
  cleanup.repositories = made_in(db, cleanup.entries);
  cleanup.ended_runs = ended_runs(db);
  cleanup.generation = begin_reconciling();
  return cleanup;
}

namespace {

// The leftovers of one repository: worktrees and branches no live row
// names and no creation of this process is making.
void reconcile(Cleanup& cleanup, const Cleanup::Repository& repository) {
  auto left = [&](const std::string& id) {
    if (repository.live.contains(id) || made_since(id, cleanup.generation)) return false;
    return !cleanup.only_without_rows || !cleanup.ever_recorded.contains(id);
  };
  git::MadeRefs refs =
      git::made_refs(repository.path, std::string(kWorkspaceIdPrefix), branch_prefix());
  std::set<std::string> kept_worktrees;
  for (const auto& worktree : refs.worktrees) {
    if (!left(worktree.name)) continue;
    Cleanup::Leftover leftover{repository.path, worktree.name, worktree.path, "", false, ""};
    if (worktree.dirty) {
      leftover.why = "it has edits that were never committed";
      kept_worktrees.insert(worktree.name);
    } else {
      try {
        git::remove_worktree(repository.path, worktree.name, "", false);
        leftover.removed = true;
      } catch (const std::exception& e) {
        leftover.why = e.what();
        kept_worktrees.insert(worktree.name);
      }
    }
    cleanup.leftovers.push_back(std::move(leftover));
  }
  for (const auto& branch : refs.branches) {
    // mission/<id>/work, or mission/<id> as branches were named before.
    std::string id = branch.name.substr(std::string(kMissionBranchPrefix).size());
    id = id.substr(0, id.find('/'));
    if (!left(id) || kept_worktrees.contains(id)) continue;
    Cleanup::Leftover leftover{repository.path, "", "", branch.name, false, ""};
    if (!branch.held_elsewhere) {
      leftover.why =
          "it holds commits no other branch has (delete it with git branch -D " + branch.name + ")";
    } else {
      try {
        git::remove_worktree(repository.path, id, branch.name, true);
        leftover.removed = true;
      } catch (const std::exception& e) {
        leftover.why = e.what();
      }
    }
    // At start-up, a kept branch is nobody's news: clean reports it.
    if (leftover.removed || !cleanup.only_without_rows)
      cleanup.leftovers.push_back(std::move(leftover));
  }
}

// The --gate worktrees and branches of runs that have ended, a killed
// daemon's or one whose removal failed: nothing in them is anyone's work.
void reconcile_gates(Cleanup& cleanup, const Cleanup::Repository& repository) {
  git::MadeRefs refs = git::made_refs(repository.path, std::string(kGateWorktreePrefix),
                                      std::string(kGateBranchPrefix));
  std::set<std::string> gone_branches;
  for (const auto& worktree : refs.worktrees) {
    // gate-<run id>-<slot>
    const std::string rest = worktree.name.substr(kGateWorktreePrefix.size());
    const std::size_t dash = rest.rfind('-');
    if (dash == std::string::npos || !cleanup.ended_runs.contains(rest.substr(0, dash))) continue;
    const std::string branch =
        std::string(kGateBranchPrefix) + rest.substr(0, dash) + "/" + rest.substr(dash + 1);
    Cleanup::Leftover leftover{repository.path, worktree.name, worktree.path, branch, false, ""};
    try {
      git::remove_worktree(repository.path, worktree.name, branch, true);
      // What git does not track (a gate's build output) stays after a prune.
      std::error_code ignored;
      std::filesystem::remove_all(worktree.path, ignored);
      leftover.removed = true;
      gone_branches.insert(branch);
    } catch (const std::exception& e) {
      leftover.why = e.what();
    }
    cleanup.leftovers.push_back(std::move(leftover));
  }
  for (const auto& branch : refs.branches) {
    // mission/gate/<run id>/<slot>
    const std::string rest = branch.name.substr(kGateBranchPrefix.size());
    if (gone_branches.contains(branch.name) ||
        !cleanup.ended_runs.contains(rest.substr(0, rest.find('/'))))
      continue;
    Cleanup::Leftover leftover{repository.path, "", "", branch.name, false, ""};
    try {
      git::remove_worktree(repository.path, "", branch.name, true);
      leftover.removed = true;
    } catch (const std::exception& e) {
      leftover.why = e.what();
    }
    cleanup.leftovers.push_back(std::move(leftover));
  }
}

}  // namespace

void run_clean(Cleanup& cleanup) {
  for (auto& entry : cleanup.entries) {
    const auto& row = entry.workspace;
    try {
      // Only a branch git shows merged is deleted, whatever its row says:
      // the row may have been told so by a caller, and the commits on an
      // unmerged branch would be gone with it.
      entry.delete_branch =
          row.base_branch && row.base_commit &&
          git::branch_merged(row.repository, row.branch, *row.base_branch, *row.base_commit);
      // Edits never committed would be lost with the directory: kept.
      if (git::work_tree_dirty(row.path)) {
        throw MissionError(ErrorCode::invalid_argument,
                           row.path + " has edits that were never committed",
                           "commit or discard them there, then run mission workspaces clean again");
      }
      git::remove_worktree(row.repository, row.id, row.branch, entry.delete_branch);
    } catch (const std::exception& e) {
      entry.error = e.what();
    }
  }
  for (const auto& repository : cleanup.repositories) {
    try {
      reconcile(cleanup, repository);
      reconcile_gates(cleanup, repository);
    } catch (const std::exception& e) {
      cleanup.leftovers.push_back({repository.path, "", "", "", false, e.what()});
    }
  }
  end_reconciling();
}

nlohmann::json record_clean(store::Database& db, const Cleanup& cleanup, std::int64_t now,
                            KeyStyle style) {
  store::WorkspaceRepository workspaces(db);
  nlohmann::json removed = nlohmann::json::array();
  nlohmann::json failed = nlohmann::json::array();
  for (const auto& entry : cleanup.entries) {
    if (entry.error) {
      failed.push_back(
          {{"id", entry.workspace.id}, {"path", entry.workspace.path}, {"error", *entry.error}});
      continue;
    }
    workspaces.set_status(entry.workspace.id, WorkspaceStatus::removed, std::nullopt, now);
    removed.push_back({{"id", entry.workspace.id},
                       {"path", entry.workspace.path},
                       {"branch", entry.workspace.branch},
                       {key(style, "branch_deleted"), entry.delete_branch}});
  }
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& leftover : cleanup.leftovers) {
    if (leftover.removed) {
      nlohmann::json item = {{"path", leftover.path},
                             {"branch", leftover.branch},
                             {key(style, "branch_deleted"), !leftover.branch.empty()},
                             {key(style, "without_record"), true}};
      if (!leftover.name.empty()) item["id"] = leftover.name;
      removed.push_back(std::move(item));
    } else {
      kept.push_back({{"repository", leftover.repository},
                      {"path", leftover.path},
                      {"branch", leftover.branch},
                      {"reason", leftover.why}});
    }
  }
  return {
      {"removed", std::move(removed)}, {"failed", std::move(failed)}, {"kept", std::move(kept)}};
}

}  // namespace mission::daemon::workspaces
