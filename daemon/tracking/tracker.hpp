#pragma once
// What the tracking tools do (seeds mission-control-mcp-protocol.md and
// workflow-tracking-mcp-protocol.fr.md): missions and legacy workflows,
// phases, tasks with exact change sets, decisions, issues, milestones. Each
// function takes the tool's validated arguments and returns its structured
// result, or throws MissionError. Runs on the loop thread inside the
// caller's transaction; start_task and complete_task are split around their
// git work, which runs in the thread pool.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::tracking {

// Who calls, recorded on every row it makes, and where the events its call
// produces go (published once the transaction commits).
struct Caller {
  store::Database& db;
  std::string execution_id;
  std::vector<nlohmann::json>& events;
};

nlohmann::json start_mission(Caller& caller, const nlohmann::json& args);
nlohmann::json start_workflow(Caller& caller, const nlohmann::json& args);
nlohmann::json complete_mission(Caller& caller, const nlohmann::json& args);

// start_task, resolved and checked before its snapshot is taken.
struct TaskStart {
  nlohmann::json args;
  std::string mission_id;
  std::string mission_kind;
  std::optional<std::int64_t> phase_number;  // missions only
  std::string cwd;                           // where the snapshot is taken
};
TaskStart plan_task_start(Caller& caller, const nlohmann::json& args);
nlohmann::json finish_task_start(Caller& caller, const TaskStart& plan, const git::Snapshot& snapshot);

// complete_task, checked and with its start snapshot loaded.
struct TaskCompletion {
  nlohmann::json args;
  std::string task_id;
  git::Snapshot snapshot;
  std::vector<std::string> areas;
};
TaskCompletion plan_task_completion(Caller& caller, const nlohmann::json& args);
nlohmann::json finish_task_completion(Caller& caller, const TaskCompletion& plan,
                                      const git::ChangeSet& changes,
                                      const git::ScopeVerification& verification);

nlohmann::json log_decision(Caller& caller, const nlohmann::json& args);
nlohmann::json log_issue(Caller& caller, const nlohmann::json& args);
nlohmann::json log_milestone(Caller& caller, const nlohmann::json& args);

// get_context (also the control API's mission.context).
nlohmann::json mission_context(store::Database& db, const nlohmann::json& args);

}  // namespace mission::daemon::tracking
