// Workspaces (docs/adr/0019): see workspaces.hpp.

#include "daemon/workspaces/workspaces.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "daemon/store/mission_repository.hpp"
#include "daemon/store/ownership.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::workspaces {
namespace {

store::MissionRow require_workflow(store::Database& db, const std::string& id) {
  auto row = store::MissionRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "workflow_id '" + id + "' does not exist",
                       "workflow_list shows the workflows", {{"field", "workflow_id"}, {"id", id}});
  }
  return *row;
}

store::TaskRow require_task(store::Database& db, const std::string& id) {
  auto row = store::TaskRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "task_id '" + id + "' does not exist",
                       "workflow_get with include_tasks lists a workflow's tasks", {{"task_id", id}});
  }
  return *row;
}

store::WorkspaceRow require_workspace(store::Database& db, const std::string& id) {
  auto row = store::WorkspaceRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "workspace '" + id + "' does not exist",
                       "workspace_list shows a workflow's workspaces", {{"id", id}});
  }
  return *row;
}

bool valid_branch(const std::string& name) {
  if (name.empty() || name.size() > limits::kMaxBranchNameBytes || name.front() == '-' || name.front() == '/' ||
      name.back() == '/' || name.back() == '.' || name.find("..") != std::string::npos ||
      name.find("//") != std::string::npos || name.find("@{") != std::string::npos ||
      name.ends_with(".lock")) {
    return false;
  }
  return std::none_of(name.begin(), name.end(), [](unsigned char c) {
    return c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' ||
           c == '[' || c == '\\';
  });
}

}  // namespace

std::string repository_of(store::Database& db, const store::MissionRow& workflow) {
  store::PlanRepository plans(db);
  if (auto plan = plans.workflow_plan(workflow.id); plan && plan->repository_id) {
    if (auto repository = plans.repository(*plan->repository_id)) return repository->path;
  }
  return workflow.cwd;
}


CreatePlan plan_create(store::Database& db, const std::string& caller, const CreateRequest& request) {
  store::MissionRow workflow = require_workflow(db, request.workflow_id);
  if (is_final(workflow.status)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " has ended (" + std::string(name_of(workflow.status)) + ")",
                       "workspaces are for work still to do", {{"workflow_id", workflow.id}});
  }
  bool may = caller.empty();
  for (const auto& task_id : request.task_ids) {
    store::TaskRow task = require_task(db, task_id);
    if (task.mission_id != workflow.id) {
      throw MissionError(ErrorCode::invalid_argument,
                         "task " + task_id + " belongs to " + task.mission_id + ", not " + workflow.id,
                         "give tasks of the workspace's workflow", {{"task_id", task_id}});
    }
    if (task.status == TaskStatus::in_progress) {
      throw MissionError(ErrorCode::invalid_argument,
                         "task " + task_id + " is in progress: its snapshot was taken where it started",
                         "assign a workspace before start_task", {{"task_id", task_id}});
    }
    if (!caller.empty()) store::require_task_writer(db, caller, task);
    may = true;
  }
  if (!may) store::require_mission_writer(db, caller, workflow);
  CreatePlan plan;
  plan.id = new_random_id("ws-", 10);
  plan.workflow_id = workflow.id;
  plan.caller = caller;
  plan.task_ids = request.task_ids;
  plan.spec.repository = repository_of(db, workflow);
  plan.spec.branch = request.branch.value_or("mission/" + plan.id);
  if (!valid_branch(plan.spec.branch)) {
    throw MissionError(ErrorCode::invalid_argument, "branch '" + plan.spec.branch + "' is not a valid branch name",
                       "use letters, digits, '-', '_', '.' and '/' (git check-ref-format)", {{"field", "branch"}});
  }
  plan.spec.base = request.base_branch.value_or("");
  plan.spec.name = plan.id;
  if (request.path) {
    std::filesystem::path path(*request.path);
    if (!path.is_absolute()) {
      throw MissionError(ErrorCode::invalid_argument, "path '" + *request.path + "' is not absolute",
                         "give an absolute path that does not exist yet, or leave path out", {{"field", "path"}});
    }
    plan.spec.path = path.lexically_normal().string();
    if (store::WorkspaceRepository(db).find_by_path(plan.spec.path)) {
      throw MissionError(ErrorCode::duplicate, "a workspace at " + plan.spec.path + " exists",
                         "workspace_list shows it; choose another path", {{"field", "path"}});
    }
  }
  return plan;
}

git::WorktreeCreated run_create(const CreatePlan& plan) {
  git::WorktreeSpec spec = plan.spec;
  if (spec.path.empty()) {
    auto root = git::main_work_tree(spec.repository);
    if (!root) {
      throw MissionError(ErrorCode::invalid_argument, spec.repository + " is not in a git work tree",
                         "workspaces are git worktrees: run the workflow in a git repository",
                         {{"repository", spec.repository}});
    }
    spec.path = *root + ".worktrees/" + plan.id;
  }
  std::error_code ignored;
  if (std::filesystem::exists(spec.path, ignored)) {
    throw MissionError(ErrorCode::invalid_argument, spec.path + " exists",
                       "give a path that does not exist yet, or leave path out", {{"field", "path"}});
  }
  std::filesystem::create_directories(std::filesystem::path(spec.path).parent_path(), ignored);
  return git::add_worktree(spec);
}

store::WorkspaceRow record_create(store::Database& db, const CreatePlan& plan, const git::WorktreeCreated& made,
                                  std::int64_t now) {
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
  workspaces.insert(row);
  for (const auto& task_id : plan.task_ids) workspaces.assign(task_id, row.id);
  row.task_ids = plan.task_ids;
  return row;
}

bool wants_workspace(store::Database& db, const std::string& task_id) {
  auto task = store::PlanRepository(db).task(task_id);
  if (!task || !task->plan_order || task->status == TaskStatus::in_progress) return false;
  if (store::WorkspaceRepository(db).of_task(task_id)) return false;
  auto plan = store::PlanRepository(db).workflow_plan(task->mission_id);
  return plan && plan->auto_create_workspaces;
}

void update(store::Database& db, const std::string& caller, const std::string& id,
            std::optional<WorkspaceStatus> status, const std::optional<std::string>& merge_commit) {
  store::WorkspaceRow row = require_workspace(db, id);
  if (!caller.empty() && row.execution_id != caller) {
    store::require_mission_writer(db, caller, require_workflow(db, row.workflow_id));
  }
  if (status == WorkspaceStatus::removed) {
    throw MissionError(ErrorCode::invalid_argument, "status removed is set by mission workspaces clean",
                       "set abandoned; mission workspaces clean then removes its worktree", {{"field", "status"}});
  }
  if (row.status == WorkspaceStatus::removed) {
    throw MissionError(ErrorCode::invalid_argument, "workspace " + id + " was removed", "create a new workspace",
                       {{"id", id}});
  }
  store::WorkspaceRepository(db).set_status(id, status.value_or(row.status), merge_commit, unix_ms_now());
}

void assign(store::Database& db, const std::string& caller, const std::string& task_id,
            const std::string& workspace_id) {
  store::TaskRow task = require_task(db, task_id);
  store::WorkspaceRow workspace = require_workspace(db, workspace_id);
  if (!caller.empty()) store::require_task_writer(db, caller, task);
  if (task.mission_id != workspace.workflow_id) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task_id + " belongs to " + task.mission_id + ", workspace " + workspace_id +
                           " to " + workspace.workflow_id,
                       "assign a workspace of the task's own workflow", {{"task_id", task_id}});
  }
  if (workspace.status != WorkspaceStatus::active) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workspace " + workspace_id + " is " + std::string(name_of(workspace.status)),
                       "assign an active workspace; workspace_create makes one", {{"workspace_id", workspace_id}});
  }
  if (task.status == TaskStatus::in_progress) {
    throw MissionError(ErrorCode::invalid_argument,
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
                        {key(style, "base_branch"), row.base_branch ? nlohmann::json(*row.base_branch) : nlohmann::json()},
                        {key(style, "base_commit"), row.base_commit ? nlohmann::json(*row.base_commit) : nlohmann::json()},
                        {"status", row.status},
                        {key(style, "task_ids"), row.task_ids},
                        {key(style, "created_at"), format_utc_iso8601(row.created_at)},
                        {key(style, "updated_at"), format_utc_iso8601(row.updated_at)}};
  if (row.merge_commit) out[key(style, "merge_commit")] = *row.merge_commit;
  return out;
}

store::Page<store::WorkspaceRow> list(store::Database& db, const ListRequest& request) {
  std::vector<WorkspaceStatus> statuses = request.statuses;
  if (statuses.empty()) statuses = {WorkspaceStatus::active, WorkspaceStatus::merged, WorkspaceStatus::abandoned};
  return store::WorkspaceRepository(db).page(request.workflow_id, statuses, request.page);
}

std::vector<MergeCheck> plan_merge_checks(store::Database& db, const std::optional<std::string>& workflow_id) {
  std::vector<MergeCheck> checks;
  for (const auto& row : store::WorkspaceRepository(db).in_statuses(workflow_id, {WorkspaceStatus::active})) {
    if (!row.base_branch || !row.base_commit) continue;
    checks.push_back({row.id, row.repository, row.branch, *row.base_branch, *row.base_commit, false});
  }
  return checks;
}

void run_merge_checks(std::vector<MergeCheck>& checks) {
  for (auto& check : checks) {
    try {
      check.merged = git::branch_merged(check.repository, check.branch, check.base_ref, check.base_commit);
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
  for (auto& row : store::WorkspaceRepository(db).in_statuses(workflow_id, {WorkspaceStatus::active})) {
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
      std::set_intersection(left.changed.begin(), left.changed.end(), right.changed.begin(), right.changed.end(),
                            std::back_inserter(pair.overlapping));
      try {
        git::TrialMerge merge = git::trial_merge(left.workspace.repository, left.workspace.branch, right.workspace.branch);
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
      nlohmann::json item = {{"workspaces", {scan.entries[pair.a].workspace.id, scan.entries[pair.b].workspace.id}},
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

Cleanup plan_clean(store::Database& db, const std::optional<std::string>& workflow_id) {
  Cleanup cleanup;
  store::MissionRepository missions(db);
  for (auto& row : store::WorkspaceRepository(db).in_statuses(
           workflow_id, {WorkspaceStatus::active, WorkspaceStatus::merged, WorkspaceStatus::abandoned})) {
    if (!row.owned) continue;
    bool gone = row.status != WorkspaceStatus::active;
    if (!gone) {
      auto workflow = missions.find(row.workflow_id);
      gone = !workflow || is_final(workflow->status);
    }
    if (!gone) continue;
    const bool merged = row.status == WorkspaceStatus::merged;
    cleanup.entries.push_back({std::move(row), merged, std::nullopt});
  }
  return cleanup;
}

void run_clean(Cleanup& cleanup) {
  for (auto& entry : cleanup.entries) {
    const auto& row = entry.workspace;
    try {
      // A branch found merged only now is deleted as well.
      if (!entry.delete_branch && row.base_branch && row.base_commit) {
        entry.delete_branch = git::branch_merged(row.repository, row.branch, *row.base_branch, *row.base_commit);
      }
      // Edits never committed would be lost with the directory: kept.
      if (git::work_tree_dirty(row.path)) {
        throw MissionError(ErrorCode::invalid_argument, row.path + " has edits that were never committed",
                           "commit or discard them there, then run mission workspaces clean again");
      }
      git::remove_worktree(row.repository, row.id, row.branch, entry.delete_branch);
    } catch (const std::exception& e) {
      entry.error = e.what();
    }
  }
}

nlohmann::json record_clean(store::Database& db, const Cleanup& cleanup, std::int64_t now, KeyStyle style) {
  store::WorkspaceRepository workspaces(db);
  nlohmann::json removed = nlohmann::json::array();
  nlohmann::json failed = nlohmann::json::array();
  for (const auto& entry : cleanup.entries) {
    if (entry.error) {
      failed.push_back({{"id", entry.workspace.id}, {"path", entry.workspace.path}, {"error", *entry.error}});
      continue;
    }
    workspaces.set_status(entry.workspace.id, WorkspaceStatus::removed, std::nullopt, now);
    removed.push_back({{"id", entry.workspace.id},
                       {"path", entry.workspace.path},
                       {"branch", entry.workspace.branch},
                       {key(style, "branch_deleted"), entry.delete_branch}});
  }
  return {{"removed", std::move(removed)}, {"failed", std::move(failed)}};
}

}  // namespace mission::daemon::workspaces
