#pragma once
// What the tracking tools do (seeds mission-control-mcp-protocol.md and
// workflow-tracking-mcp-protocol.fr.md): missions and legacy workflows,
// phases, tasks with exact change sets, decisions, issues, milestones. Each
// function takes the tool's typed request and returns its structured
// result (the seeds' snake_case), or throws MissionError. Runs on the loop
// thread inside the caller's transaction; start_task and complete_task are
// split around their git work, which runs in the thread pool.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/git/change_set.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/key_style.hpp"
#include "daemon/tracking/requests.hpp"

namespace mission::daemon::tracking {

// Who calls, recorded on every row it makes, and where the events its call
// produces go (published once the transaction commits).
struct Caller {
  store::Database& db;
  std::string execution_id;
  events::EventBatch& events;
};

nlohmann::json start_mission(Caller& caller, const StartMissionRequest& request);
nlohmann::json start_workflow(Caller& caller, const StartWorkflowRequest& request);
// Refuses while tasks are in progress unless the request closes them.
nlohmann::json complete_mission(Caller& caller, const CompleteMissionRequest& request);

// start_task, resolved and checked before its snapshot is taken.
struct TaskStart {
  StartTaskRequest request;
  std::string mission_id;
  MissionKind mission_kind = MissionKind::mission;
  std::optional<std::int64_t> phase_number;  // missions only
  std::string cwd;                           // where the snapshot is taken
};
TaskStart plan_task_start(Caller& caller, const StartTaskRequest& request);
nlohmann::json finish_task_start(Caller& caller, const TaskStart& plan,
                                 const git::Snapshot& snapshot);

// complete_task, checked and with its start snapshot loaded.
struct TaskCompletion {
  CompleteTaskRequest request;
  git::Snapshot snapshot;
  std::vector<std::string> areas;
};
TaskCompletion plan_task_completion(Caller& caller, const CompleteTaskRequest& request);
nlohmann::json finish_task_completion(Caller& caller, const TaskCompletion& plan,
                                      const git::ChangeSet& changes,
                                      const git::ScopeVerification& verification);

nlohmann::json log_decision(Caller& caller, const LogDecisionRequest& request);
nlohmann::json log_issue(Caller& caller, const LogIssueRequest& request);
nlohmann::json log_milestone(Caller& caller, const LogMilestoneRequest& request);

// get_context (also the control API's mission.context, in camelCase).
nlohmann::json mission_context(store::Database& db, const GetContextRequest& request,
                               KeyStyle style);

// One page of a task's changed paths (the task_changes tool and the
// control API's task.changes).
nlohmann::json task_changes(store::Database& db, const TaskChangesRequest& request, KeyStyle style);

// Called when a person resolves a blocker: a blocked mission whose last
// blocker this was goes back to in_progress.
void after_blocker_resolved(Caller& caller, const std::string& mission_id);

}  // namespace mission::daemon::tracking
