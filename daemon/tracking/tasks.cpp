// start_task and complete_task: each checked on the loop, then its git work
// (the snapshot, the change set) in the thread pool, then recorded on the
// loop, where everything is checked again: another call may have changed
// the mission or the task meanwhile.

#include "daemon/execution/agent_execution.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// The mission a start_task belongs to: named by mission_id or workflow_id,
// or inherited from parent_task_id.
store::MissionRow resolve_mission(Caller& caller, const nlohmann::json& args) {
  auto mission_id = text_arg(args, "mission_id");
  auto workflow_id = text_arg(args, "workflow_id");
  if (mission_id && workflow_id) {
    throw MissionError(ErrorCode::invalid_argument, "start_task takes mission_id or workflow_id, not both",
                       "pass mission_id for a mission, workflow_id for a legacy workflow");
  }
  if (mission_id || workflow_id) {
    const char* field = mission_id ? "mission_id" : "workflow_id";
    store::MissionRow row = require_mission(caller.db, mission_id ? *mission_id : *workflow_id, field);
    const char* expected = mission_id ? "mission" : "workflow";
    if (row.kind != expected) {
      throw MissionError(ErrorCode::invalid_argument,
                         row.id + " is a " + row.kind + ", not a " + expected,
                         std::string("pass it as ") + (row.kind == "mission" ? "mission_id" : "workflow_id"),
                         {{"field", field}, {"id", row.id}});
    }
    return row;
  }
  if (auto parent = text_arg(args, "parent_task_id")) {
    return require_mission(caller.db, require_task(caller.db, *parent).mission_id, "mission_id");
  }
  throw MissionError(ErrorCode::invalid_argument, "start_task needs mission_id (or workflow_id)",
                     "call start_mission first and pass its mission_id");
}

void check_parent(Caller& caller, const nlohmann::json& args, const store::MissionRow& mission) {
  auto parent = text_arg(args, "parent_task_id");
  if (!parent) return;
  store::TaskRow row = require_task(caller.db, *parent);
  if (row.mission_id != mission.id) {
    throw MissionError(ErrorCode::invalid_argument,
                       "parent task " + row.id + " belongs to " + row.mission_id + ", not " + mission.id,
                       "start a subtask in its parent's mission", {{"field", "parent_task_id"}});
  }
}

std::vector<std::string> areas_of(const store::TaskRow& row) {
  std::vector<std::string> areas;
  nlohmann::json parsed = nlohmann::json::parse(row.areas, nullptr, false);
  if (parsed.is_array()) {
    for (const auto& area : parsed) areas.push_back(area.get<std::string>());
  }
  return areas;
}

}  // namespace

TaskStart plan_task_start(Caller& caller, const nlohmann::json& args) {
  store::MissionRow mission = resolve_mission(caller, args);
  require_open(mission);
  check_parent(caller, args, mission);
  TaskStart plan{args, mission.id, mission.kind, std::nullopt, execution_cwd(caller.db, caller.execution_id)};
  if (mission.kind == "workflow") {
    if (args.contains("phase") || args.contains("phase_name")) {
      throw MissionError(ErrorCode::invalid_argument, "workflow " + mission.id + " has no phases",
                         "leave out phase and phase_name, or use a mission (start_mission)",
                         {{"field", "phase"}});
    }
  } else {
    plan.phase_number = args.contains("phase") ? args.at("phase").get<std::int64_t>()
                                               : mission.current_phase;
  }
  return plan;
}

nlohmann::json finish_task_start(Caller& caller, const TaskStart& plan, const git::Snapshot& snapshot) {
  store::MissionRow mission = require_mission(caller.db, plan.mission_id, "mission_id");
  require_open(mission);
  check_parent(caller, plan.args, mission);
  const std::int64_t now = execution::unix_ms_now();
  store::MissionRepository missions(caller.db);

  std::optional<store::PhaseRow> phase;
  bool phase_created = false;
  if (plan.phase_number) {
    phase = missions.find_phase(mission.id, *plan.phase_number);
    if (!phase) {
      phase = store::PhaseRow{execution::new_random_id("ph-", 10),
                              mission.id,
                              *plan.phase_number,
                              text_arg(plan.args, "phase_name").value_or("Phase " + std::to_string(*plan.phase_number)),
                              "in_progress",
                              caller.execution_id,
                              now,
                              std::nullopt};
      missions.insert_phase(*phase);
      phase_created = true;
    }
  }

  store::TaskRow task;
  task.id = execution::new_random_id("tk-", 10);
  task.mission_id = mission.id;
  if (phase) task.phase_id = phase->id;
  task.parent_task_id = text_arg(plan.args, "parent_task_id");
  task.execution_id = caller.execution_id;
  task.caller_type = text_arg(plan.args, "caller_type");
  task.agent_name = text_arg(plan.args, "agent_name");
  task.name = plan.args.at("name").get<std::string>();
  task.goal = plan.args.at("goal").get<std::string>();
  task.areas = plan.args.value("areas", nlohmann::json::array()).dump();
  task.status = "in_progress";
  task.snapshot_type = snapshot.type;
  task.snapshot_id = snapshot.id;
  task.snapshot_root = snapshot.root;
  task.started_at = now;
  store::TaskRepository(caller.db).insert(task, snapshot.data);
  missions.touch(mission.id, now);

  if (phase_created) caller.events.push_back(phase_event(caller.db, "created", phase->id, caller.execution_id));
  caller.events.push_back(task_event(caller.db, "created", task.id, caller.execution_id));

  nlohmann::json out = {{"task_id", task.id},
                        {"snapshot_id", snapshot.id},
                        {"snapshot_type", snapshot.type},
                        {"started_at", format_utc_iso8601(now)},
                        {"caller_type", task.caller_type ? nlohmann::json(*task.caller_type) : nlohmann::json()},
                        {"agent_name", task.agent_name ? nlohmann::json(*task.agent_name) : nlohmann::json()}};
  out[mission.kind == "workflow" ? "workflow_id" : "mission_id"] = mission.id;
  if (phase) {
    out["phase_id"] = phase->id;
    out["phase_number"] = phase->number;
    out["phase_created"] = phase_created;
  }
  return out;
}

TaskCompletion plan_task_completion(Caller& caller, const nlohmann::json& args) {
  store::TaskRow task = require_task(caller.db, args.at("task_id").get<std::string>());
  if (task.status != "in_progress") {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task.id + " is already completed (" + task.status + ")",
                       "start a new task with start_task for more work",
                       {{"task_id", task.id}, {"status", task.status}});
  }
  git::Snapshot snapshot{task.snapshot_type, task.snapshot_id, task.snapshot_root,
                         store::TaskRepository(caller.db).snapshot_data(task.id)};
  return {args, task.id, std::move(snapshot), areas_of(task)};
}

nlohmann::json finish_task_completion(Caller& caller, const TaskCompletion& plan,
                                      const git::ChangeSet& changes,
                                      const git::ScopeVerification& verification) {
  store::TaskRow task = require_task(caller.db, plan.task_id);
  if (task.status != "in_progress") {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task.id + " was completed meanwhile (" + task.status + ")",
                       "get_context shows its result", {{"task_id", task.id}, {"status", task.status}});
  }
  const std::int64_t now = execution::unix_ms_now();
  nlohmann::json files_changed = git::to_json(changes);
  nlohmann::json checked = git::to_json(verification);
  task.status = plan.args.at("status").get<std::string>();
  task.outcome = plan.args.at("outcome").dump();
  task.metadata = json_arg(plan.args, "metadata");
  task.files_changed = files_changed.dump();
  task.verification = checked.dump();
  task.completed_at = now;
  store::TaskRepository(caller.db).complete(task);
  caller.events.push_back(task_event(caller.db, "updated", task.id, caller.execution_id));

  nlohmann::json out = {{"task_id", task.id},
                        {"status", task.status},
                        {"duration_seconds", duration_seconds(task.started_at, now)},
                        {"files_changed", std::move(files_changed)},
                        {"verification", std::move(checked)}};

  store::MissionRepository missions(caller.db);
  store::MissionRow mission = require_mission(caller.db, task.mission_id, "mission_id");
  bool mission_changed = mission.kind == "workflow";  // a workflow changes with its tasks
  if (task.phase_id) {
    auto phase = missions.find_phase_by_id(*task.phase_id);
    if (plan.args.value("phase_complete", false) && phase->status != "completed") {
      missions.complete_phase(phase->id, now);
      phase->status = "completed";
      caller.events.push_back(phase_event(caller.db, "updated", phase->id, caller.execution_id));
      if (mission.current_phase <= phase->number) {
        missions.set_current_phase(mission.id, phase->number + 1, now);
        mission_changed = true;
      }
    }
    out["phase_status"] = phase->status;
    out["phase_number"] = phase->number;
  }
  missions.touch(mission.id, now);
  if (mission_changed) {
    caller.events.push_back(mission_event(caller.db, "updated", mission.id, caller.execution_id));
  }
  return out;
}

}  // namespace mission::daemon::tracking
