// start_task and complete_task: each checked on the loop, then its git work
// (the snapshot, the change set) in the thread pool, then recorded on the
// loop, where everything is checked again: another call may have changed
// the mission or the task meanwhile.

#include <set>

#include "daemon/store/claim_repository.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "daemon/tracking/authorization.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

const char* target_field(TaskTarget::Kind kind) {
  switch (kind) {
    case TaskTarget::Kind::mission:
      return "mission_id";
    case TaskTarget::Kind::workflow:
      return "workflow_id";
    case TaskTarget::Kind::parent_task:
      return "parent_task_id";
    case TaskTarget::Kind::planned_task:
      return "task_id";
  }
  return "mission_id";
}

// The mission a start_task belongs to: named by mission_id or workflow_id,
// or inherited from parent_task_id.
store::MissionRow resolve_mission(Caller& caller, const TaskTarget& target) {
  if (target.kind == TaskTarget::Kind::parent_task ||
      target.kind == TaskTarget::Kind::planned_task) {
    return require_mission(caller.db, require_task(caller.db, target.id).mission_id, "mission_id");
  }
  const char* field = target_field(target.kind);
  store::MissionRow row = require_mission(caller.db, target.id, field);
  const MissionKind expected =
      target.kind == TaskTarget::Kind::mission ? MissionKind::mission : MissionKind::workflow;
  // A planned workflow (seed 003) takes ad-hoc tasks by workflow_id too.
  const bool matches = row.kind == expected ||
                       (expected == MissionKind::workflow && row.kind == MissionKind::planned);
  if (!matches) {
    throw MissionError(ErrorCode::invalid_argument,
                       row.id + " is a " + std::string(name_of(row.kind)) + ", not a " +
                           std::string(name_of(expected)),
                       std::string("pass it as ") +
                           (row.kind == MissionKind::mission ? "mission_id" : "workflow_id"),
                       {{"field", field}, {"id", row.id}});
  }
  return row;
}

std::vector<std::string> areas_of(const store::TaskRow& row) {
  std::vector<std::string> areas;
  nlohmann::json parsed = parse_json_or_discarded(row.areas);
  if (parsed.is_array()) {
    for (const auto& area : parsed) {
      if (area.is_string()) areas.push_back(area.get<std::string>());
    }
  }
  return areas;
}

void require_in_progress(const store::TaskRow& task, const char* what) {
  if (task.status == TaskStatus::in_progress) return;
  if (task.status == TaskStatus::pending) {
    throw MissionError(ErrorCode::invalid_argument, "task " + task.id + " has not started",
                       "start it with start_task and task_id, then complete it",
                       {{"task_id", task.id}, {"status", task.status}});
  }
  throw MissionError(
      ErrorCode::invalid_argument,
      "task " + task.id + " " + what + " (" + std::string(name_of(task.status)) + ")",
      "start a new task with start_task for more work; get_context shows its result",
      {{"task_id", task.id}, {"status", task.status}});
}

// A phase that has ended takes no new task.
void require_open_phase(const store::PhaseRow& phase) {
  if (phase.status != PhaseStatus::completed && phase.status != PhaseStatus::failed) return;
  throw MissionError(
      ErrorCode::invalid_argument,
      "phase " + std::to_string(phase.number) + " is already " + std::string(name_of(phase.status)),
      "start the task in a later phase (pass phase)",
      {{"field", "phase"}, {"phase", phase.number}});
}

std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The rows of a change set, each marked in or out of the task's areas.
std::vector<store::ChangeRow> change_rows(const git::ChangeSet& changes,
                                          const git::ScopeVerification& verification) {
  std::set<std::string> unexpected(verification.unexpected_files.begin(),
                                   verification.unexpected_files.end());
  std::vector<store::ChangeRow> rows;
  auto add = [&](const char* kind, const std::vector<std::string>& paths) {
    for (const auto& path : paths)
      rows.push_back({kind, path, std::nullopt, unexpected.count(path) == 0});
  };
  add("added", changes.added);
  add("modified", changes.modified);
  add("deleted", changes.deleted);
  for (const auto& rename : changes.renamed) {
    rows.push_back({"renamed", rename.to, rename.from, unexpected.count(rename.to) == 0});
  }
  return rows;
}

// The stored and answered scope check: bounded, with the count of all.
nlohmann::json verification_json(const git::ScopeVerification& verification) {
  nlohmann::json unexpected = nlohmann::json::array();
  for (const auto& path : verification.unexpected_files) {
    if (unexpected.size() == limits::kMaxChangedPathsShown) break;
    unexpected.push_back(path);
  }
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& warning : verification.warnings) {
    if (warnings.size() == limits::kMaxChangedPathsShown) break;
    warnings.push_back(warning);
  }
  return {{"scope_match", verification.scope_match},
          {"unexpected_files", std::move(unexpected)},
          {"unexpected_count", verification.unexpected_files.size()},
          {"warnings", std::move(warnings)}};
}

}  // namespace

// A task is added by whoever may change its mission, a subtask by whoever
// may change its parent.
void check_may_start(Caller& caller, const StartTaskRequest& request,
                     const store::MissionRow& mission) {
  if (request.target.kind == TaskTarget::Kind::planned_task) {
    store::TaskRow planned = require_task(caller.db, request.target.id);
    // A claimed task is started by its claimer only (docs/adr/0019).
    if (auto held = store::ClaimRepository(caller.db).claim_of(planned.id);
        held && held->execution_id != caller.execution_id) {
      throw MissionError(
          ErrorCode::already_claimed,
          "task " + planned.id + " is claimed by agent execution " + held->execution_id,
          "task_get_available lists the tasks nobody holds",
          {{"task_id", planned.id}, {"already_claimed_by", held->execution_id}});
    }
    require_task_writer(caller.db, caller.execution_id, planned);
    if (planned.status != TaskStatus::pending && planned.status != TaskStatus::failed) {
      throw MissionError(ErrorCode::invalid_argument,
                         "task " + planned.id + " is " + std::string(name_of(planned.status)) +
                             "; only a pending or failed planned task starts",
                         "workflow_next_tasks lists the tasks that can start now",
                         {{"task_id", planned.id}, {"status", planned.status}});
    }
    return;
  }
  if (!request.parent_task_id) {
    require_mission_writer(caller.db, caller.execution_id, mission);
    return;
  }
  store::TaskRow parent = require_task(caller.db, *request.parent_task_id);
  if (parent.mission_id != mission.id) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "parent task " + parent.id + " belongs to " + parent.mission_id + ", not " + mission.id,
        "start a subtask in its parent's mission", {{"field", "parent_task_id"}});
  }
  require_task_writer(caller.db, caller.execution_id, parent);
}

TaskStart plan_task_start(Caller& caller, const StartTaskRequest& request) {
  store::MissionRow mission = resolve_mission(caller, request.target);
  require_open(mission);
  check_may_start(caller, request, mission);
  TaskStart plan{request, mission.id, mission.kind, std::nullopt,
                 execution_cwd(caller.db, caller.execution_id)};
  if (request.target.kind == TaskTarget::Kind::planned_task) {
    // A task with a workspace runs in its worktree: the snapshot, and so
    // the change set, is taken there (docs/adr/0019).
    if (auto workspace = store::WorkspaceRepository(caller.db).of_task(request.target.id);
        workspace && workspace->status == WorkspaceStatus::active) {
      plan.cwd = workspace->path;
    }
    // The plan's task: its name, goal and areas unless the call gives them.
    store::TaskRow planned = require_task(caller.db, request.target.id);
    if (plan.request.name.empty()) plan.request.name = planned.name;
    if (plan.request.goal.empty()) plan.request.goal = planned.goal;
    if (plan.request.areas.empty()) plan.request.areas = areas_of(planned);
  }
  if (mission.kind != MissionKind::mission) {
    if (request.phase || request.phase_name) {
      throw MissionError(ErrorCode::invalid_argument, "workflow " + mission.id + " has no phases",
                         "leave out phase and phase_name, or use a mission (start_mission)",
                         {{"field", "phase"}});
    }
  } else {
    plan.phase_number = request.phase.value_or(mission.current_phase);
    if (auto phase =
            store::MissionRepository(caller.db).find_phase(mission.id, *plan.phase_number)) {
      require_open_phase(*phase);
    }
  }
  return plan;
}

nlohmann::json finish_task_start(Caller& caller, const TaskStart& plan,
                                 const git::Snapshot& snapshot) {
  const StartTaskRequest& request = plan.request;
  store::MissionRow mission = require_mission(caller.db, plan.mission_id, "mission_id");
  require_open(mission);
  check_may_start(caller, request, mission);
  const std::int64_t now = unix_ms_now();
  store::MissionRepository missions(caller.db);

  std::optional<store::PhaseRow> phase;
  bool phase_created = false;
  if (plan.phase_number) {
    phase = missions.find_phase(mission.id, *plan.phase_number);
    if (phase) {
      require_open_phase(*phase);
    } else {
      // The seed: a phase is created by its first task. A number past
      // total_phases extends the plan (mission-mcp(7), PHASES).
      phase = store::PhaseRow{
          new_random_id("ph-", 10),
          mission.id,
          *plan.phase_number,
          request.phase_name.value_or("Phase " + std::to_string(*plan.phase_number)),
          PhaseStatus::in_progress,
          caller.execution_id,
          now,
          std::nullopt};
      missions.insert_phase(*phase);
      missions.extend_phases(mission.id, *plan.phase_number, now);
      phase_created = true;
    }
  }

  store::TaskRow task;
  const bool planned = request.target.kind == TaskTarget::Kind::planned_task;
  task.id = planned ? request.target.id : new_random_id("tk-", 10);
  task.mission_id = mission.id;
  if (phase) task.phase_id = phase->id;
  task.parent_task_id = request.parent_task_id;
  task.execution_id = caller.execution_id;
  task.caller_type = request.caller_type;
  task.agent_name = request.agent_name;
  task.name = request.name;
  task.goal = request.goal;
  task.areas = json_text(request.areas);
  task.status = TaskStatus::in_progress;
  task.snapshot_type = snapshot.type;
  task.snapshot_id = snapshot.id;
  task.snapshot_root = snapshot.root;
  task.started_at = now;
  if (planned) {
    // The planned row starts: it takes the snapshot now, so its change set
    // is exact like any task's; its owner stays the plan's.
    store::TaskRow row = require_task(caller.db, task.id);
    if (row.status != TaskStatus::pending && row.status != TaskStatus::failed) {
      throw MissionError(ErrorCode::invalid_argument, "task " + task.id + " was started meanwhile",
                         "workflow_next_tasks lists the tasks that can start now",
                         {{"task_id", task.id}});
    }
  }
  if (phase_created)
    add_phase_event(caller.events, caller.db, "created", phase->id, caller.execution_id);
  task_lifecycle(caller.events, caller.db, caller.execution_id)
      .start_tracked(task, planned, snapshot.data, now);
  missions.touch(mission.id, now);

  nlohmann::json out = {
      {"task_id", task.id},
      {"snapshot_id", snapshot.id},
      {"snapshot_type", snapshot.type},
      {"started_at", format_utc_iso8601(now)},
      {"caller_type", task.caller_type ? nlohmann::json(*task.caller_type) : nlohmann::json()},
      {"agent_name", task.agent_name ? nlohmann::json(*task.agent_name) : nlohmann::json()}};
  out[mission.kind == MissionKind::mission ? "mission_id" : "workflow_id"] = mission.id;
  if (planned) out["name"] = task.name;
  if (phase) {
    out["phase_id"] = phase->id;
    out["phase_number"] = phase->number;
    out["phase_created"] = phase_created;
  }
  return out;
}

TaskCompletion plan_task_completion(Caller& caller, const CompleteTaskRequest& request) {
  store::TaskRow task = require_task(caller.db, request.task_id);
  require_task_writer(caller.db, caller.execution_id, task);
  require_in_progress(task, "is already completed");
  if (request.phase_complete && !task.phase_id) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task.id + " belongs to workflow " + task.mission_id +
                           ", which has no phases to complete",
                       "leave out phase_complete for workflow tasks",
                       {{"field", "phase_complete"}, {"task_id", task.id}});
  }
  git::Snapshot snapshot{task.snapshot_type, task.snapshot_id, task.snapshot_root,
                         store::TaskRepository(caller.db).snapshot_data(task.id)};
  return {request, std::move(snapshot), areas_of(task)};
}

nlohmann::json finish_task_completion(Caller& caller, const TaskCompletion& plan,
                                      const git::ChangeSet& changes,
                                      const git::ScopeVerification& verification) {
  const CompleteTaskRequest& request = plan.request;
  store::TaskRow task = require_task(caller.db, request.task_id);
  require_task_writer(caller.db, caller.execution_id, task);
  require_in_progress(task, "was completed meanwhile");
  const std::int64_t now = unix_ms_now();
  nlohmann::json checked = verification_json(verification);
  task.status = request.status;
  task.outcome = request.outcome.json;
  task.metadata = request.metadata_json;
  task.verification = json_text(checked);
  task.completed_at = now;
  // The change set first, so the task's event carries it.
  std::vector<store::ChangeRow> rows = change_rows(changes, verification);
  store::TaskRepository(caller.db).record_changes(task.id, rows);
  task_lifecycle(caller.events, caller.db, caller.execution_id).complete_tracked(task);

  store::MissionRepository missions(caller.db);
  store::MissionRow mission = require_mission(caller.db, task.mission_id, "mission_id");
  if (request.outcome.manual_review_needed) {
    // The seed's manual_review_needed holds the work for a person: it is a
    // blocker like a log_issue that requires human review.
    store::IssueRow issue;
    issue.id = new_random_id("is-", 10);
    issue.task_id = task.id;
    issue.execution_id = caller.execution_id;
    issue.type = "manual_review";
    issue.description = request.outcome.manual_review_reason.value_or(request.outcome.summary);
    issue.resolution = "waiting for a person's review (mission resolve " + issue.id + ")";
    issue.requires_human_review = true;
    issue.created_at = now;
    store::JournalRepository(caller.db).insert(issue);
    mark_blocked(caller.db, caller.events, mission, caller.execution_id);
  }

  TaskChanges shown;
  for (const auto& row : rows) {
    if (row.change == "added") ++shown.counts.added;
    if (row.change == "modified") ++shown.counts.modified;
    if (row.change == "deleted") ++shown.counts.deleted;
    if (row.change == "renamed") ++shown.counts.renamed;
    if (shown.first.size() < limits::kMaxChangedPathsShown) shown.first.push_back(row);
  }
  nlohmann::json out = {{"task_id", task.id},
                        {"status", task.status},
                        {"duration_seconds", duration_seconds(task.started_at, now)},
                        {"files_changed", files_changed_json(shown, KeyStyle::snake)},
                        {"verification", std::move(checked)}};
  if (request.outcome.manual_review_needed) out["blocked_for_review"] = true;

  bool mission_changed = mission.kind != MissionKind::mission;  // a workflow changes with its tasks
  if (task.phase_id) {
    auto phase = missions.find_phase_by_id(*task.phase_id);
    if (request.phase_complete && phase->status == PhaseStatus::in_progress) {
      missions.end_phase(phase->id, PhaseStatus::completed, now);
      phase->status = PhaseStatus::completed;
      add_phase_event(caller.events, caller.db, "updated", phase->id, caller.execution_id);
      if (mission.current_phase <= phase->number) {
        missions.set_current_phase(mission.id, phase->number + 1, now);
        mission_changed = true;
      }
    }
    out["phase_status"] = phase->status;
    out["phase_number"] = phase->number;
  }
  missions.touch(mission.id, now);
  if (mission_changed)
    add_mission_event(caller.events, caller.db, "updated", mission.id, caller.execution_id);
  return out;
}

nlohmann::json task_changes(store::Database& db, const TaskChangesRequest& request,
                            KeyStyle style) {
  store::TaskRow task = require_task(db, request.task_id);
  store::PageRequest page_request;
  // A change set reads in its own order, so its cursor moves forward.
  page_request.after = request.cursor.value_or(0);
  page_request.limit =
      request.limit == 0 ? limits::kMaxPageItems : std::min(request.limit, limits::kMaxPageItems);
  auto page = store::TaskRepository(db).changes(task.id, page_request);
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& change : page.rows) changes.push_back(change_json(change, style));
  auto counts = store::TaskRepository(db).change_counts(std::span(&task.id, 1))[task.id];
  nlohmann::json out = {{key(style, "task_id"), task.id},
                        {key(style, "total"), counts.total()},
                        {key(style, "changes"), std::move(changes)}};
  if (page.more) out[key(style, "next_cursor")] = std::to_string(page.positions.back());
  return out;
}

}  // namespace mission::daemon::tracking
