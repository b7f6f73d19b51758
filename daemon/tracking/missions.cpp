// start_mission, start_workflow and complete_mission.

#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/authorization.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// The seed's profiles: simple = 2 phases, standard = 3, complex = 4 or more.
std::int64_t phases_of_profile(const std::string& profile) {
  if (profile == "simple") return 2;
  if (profile == "complex") return 4;
  return 3;
}

std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

store::MissionRow new_record(Caller& caller, MissionKind kind, std::string_view prefix,
                             const std::string& name) {
  store::MissionRow row;
  row.id = new_random_id(prefix, 10);
  row.kind = kind;
  row.execution_id = caller.execution_id;
  row.cwd = execution_cwd(caller.db, caller.execution_id);
  row.name = name;
  row.status = MissionStatus::in_progress;
  row.created_at = row.updated_at = unix_ms_now();
  return row;
}

// What a finished mission's unfinished parts become.
TaskStatus closing_task_status(MissionStatus status) {
  if (status == MissionStatus::completed) return TaskStatus::success;
  if (status == MissionStatus::partial) return TaskStatus::partial_success;
  return TaskStatus::failed;
}

PhaseStatus closing_phase_status(MissionStatus status) {
  return status == MissionStatus::completed ? PhaseStatus::completed : PhaseStatus::failed;
}

void refuse_open_tasks(store::Database& db, const store::MissionRow& mission) {
  auto open = store::TaskRepository(db).open_tasks(mission.id, limits::kMaxChangedPathsShown);
  if (open.empty()) return;
  nlohmann::json tasks = nlohmann::json::array();
  std::string names;
  for (const auto& task : open) {
    tasks.push_back({{"task_id", task.id}, {"name", task.name}});
    names += (names.empty() ? "" : ", ") + task.id + " '" + task.name + "'";
  }
  const std::int64_t count = store::TaskRepository(db).status_counts(mission.id).in_progress;
  throw MissionError(ErrorCode::invalid_argument,
                     std::string(name_of(mission.kind)) + " " + mission.id + " still has " +
                         std::to_string(count) + " task(s) in progress: " + names,
                     "complete_task each of them first, or pass open_tasks: \"close\" to end them "
                     "with the mission's status",
                     {{"open_tasks", std::move(tasks)}, {"count", count}});
}

}  // namespace

nlohmann::json start_mission(Caller& caller, const StartMissionRequest& request) {
  store::MissionRow row = new_record(caller, MissionKind::mission, "ms-", request.name);
  row.objective = request.objective;
  row.description = request.description;
  row.profile = request.profile.value_or("standard");
  row.scope = request.scope;
  row.constraints = request.constraints;
  row.total_phases = request.total_phases.value_or(phases_of_profile(*row.profile));
  store::MissionRepository(caller.db).insert(row);
  add_mission_event(caller.events, caller.db, "created", row.id, caller.execution_id);
  return {{"mission_id", row.id},
          {"profile", *row.profile},
          {"total_phases", *row.total_phases},
          {"created_at", format_utc_iso8601(row.created_at)}};
}

nlohmann::json start_workflow(Caller& caller, const StartWorkflowRequest& request) {
  store::MissionRow row = new_record(caller, MissionKind::workflow, "wf-", request.name);
  row.description = request.description;
  if (!request.plan.empty()) {
    nlohmann::json plan = nlohmann::json::array();
    for (const PlanStep& step : request.plan)
      plan.push_back({{"step", step.step}, {"goal", step.goal}});
    row.plan = json_text(plan);
  }
  store::MissionRepository(caller.db).insert(row);
  add_mission_event(caller.events, caller.db, "created", row.id, caller.execution_id);
  return {{"workflow_id", row.id}, {"created_at", format_utc_iso8601(row.created_at)}};
}

nlohmann::json complete_mission(Caller& caller, const CompleteMissionRequest& request) {
  store::MissionRow row = require_mission(caller.db, request.mission_id, "mission_id");
  require_mission_writer(caller.db, caller.execution_id, row);
  require_open(row);
  const std::int64_t now = unix_ms_now();
  store::TaskRepository tasks(caller.db);
  store::MissionRepository missions(caller.db);
  std::int64_t closed_tasks = 0;
  if (request.close_open_tasks) {
    closed_tasks = task_lifecycle(caller.events, caller.db, caller.execution_id)
                       .close_open(row.id, closing_task_status(request.status), now);
  } else {
    refuse_open_tasks(caller.db, row);
  }
  missions.end_open_phases(row.id, closing_phase_status(request.status), now);

  row.status = request.status;
  row.summary = request.summary;
  row.achievements = json_text(request.achievements);
  row.limitations = json_text(request.limitations);
  row.completed_at = row.updated_at = now;
  missions.complete(row);

  std::int64_t phases_completed = 0;
  for (const auto& phase : missions.phases(row.id)) {
    phases_completed += phase.status == PhaseStatus::completed ? 1 : 0;
  }
  const std::int64_t seconds = duration_seconds(row.created_at, now);
  nlohmann::json metrics = {{"total_phases", row.total_phases.value_or(phases_completed)},
                            {"phases_completed", phases_completed},
                            {"total_tasks", tasks.status_counts(row.id).total},
                            {"total_duration_seconds", seconds},
                            {"total_duration_minutes", seconds / 60},
                            {"files_changed", tasks.distinct_changed_paths(row.id)}};
  add_mission_event(caller.events, caller.db, "updated", row.id, caller.execution_id);
  nlohmann::json out = {{"mission_id", row.id},
                        {"status", row.status},
                        {"summary", *row.summary},
                        {"achievements", request.achievements},
                        {"limitations", request.limitations},
                        {"metrics", std::move(metrics)},
                        {"completed_at", format_utc_iso8601(now)}};
  if (closed_tasks > 0) out["tasks_closed"] = closed_tasks;
  return out;
}

void after_blocker_resolved(Caller& caller, const std::string& mission_id) {
  store::MissionRepository missions(caller.db);
  auto mission = missions.find(mission_id);
  if (!mission) return;
  const std::int64_t now = unix_ms_now();
  if (mission->status == MissionStatus::blocked &&
      store::JournalRepository(caller.db).count_open_blockers(mission_id) == 0) {
    missions.set_status(mission_id, MissionStatus::in_progress, now);
  } else {
    missions.touch(mission_id, now);
  }
  add_mission_event(caller.events, caller.db, "updated", mission_id, caller.execution_id);
}

}  // namespace mission::daemon::tracking
