#include "daemon/rpc/mission_methods.hpp"

#include "daemon/daemon.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

// A mission as lists show it: the record and how far its tasks are.
nlohmann::json mission_summary(store::Database& db, const store::MissionRow& row) {
  nlohmann::json out = tracking::mission_json(row);
  std::size_t done = 0, failed = 0, total = 0;
  for (const auto& task : store::TaskRepository(db).list_for_mission(row.id)) {
    ++total;
    done += task.status != "in_progress" ? 1 : 0;
    failed += task.status == "failed" ? 1 : 0;
  }
  out["tasks"] = {{"total", total}, {"completed", done}, {"failed", failed}};
  std::size_t blockers = 0;
  for (const auto& issue : store::JournalRepository(db).issues(row.id)) {
    blockers += tracking::is_open_blocker(issue) ? 1 : 0;
  }
  out["open_blockers"] = blockers;
  return out;
}

}  // namespace

void from_json(const nlohmann::json& j, MissionListRequest& request) {
  if (j.contains("cwd")) request.cwd = j.at("cwd").get<std::string>();
  request.limit = j.value("limit", limits::kDefaultMissionListLimit);
}

void from_json(const nlohmann::json& j, MissionIdRequest& request) {
  request.id = j.at("id").get<std::string>();
}

void from_json(const nlohmann::json& j, MissionCheckRequest& request) {
  if (j.contains("missionId")) request.mission_id = j.at("missionId").get<std::string>();
  if (j.contains("cwd")) request.cwd = j.at("cwd").get<std::string>();
  request.rules.allow_failed = j.value("allowFailed", false);
  request.rules.allow_blockers = j.value("allowBlockers", false);
  request.rules.allow_scope = j.value("allowScope", false);
}

void from_json(const nlohmann::json& j, IssueResolveRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("note")) request.note = j.at("note").get<std::string>();
}

nlohmann::json handle_mission_list(MethodContext& context, const MissionListRequest& request) {
  store::Database& db = context.daemon.database();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : store::MissionRepository(db).list(request.limit, request.cwd)) {
    list.push_back(mission_summary(db, row));
  }
  return {{"missions", std::move(list)}};
}

nlohmann::json handle_mission_get(MethodContext& context, const MissionIdRequest& request) {
  store::Database& db = context.daemon.database();
  store::MissionRow mission = tracking::require_mission(db, request.id, "mission");
  auto tasks = store::TaskRepository(db).list_for_mission(mission.id);
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& phase : store::MissionRepository(db).phases(mission.id)) {
    std::size_t count = 0;
    for (const auto& task : tasks) count += task.phase_id == phase.id ? 1 : 0;
    phases.push_back(tracking::phase_json(phase, count));
  }
  nlohmann::json task_list = nlohmann::json::array();
  for (const auto& task : tasks) task_list.push_back(tracking::task_json(task));
  store::JournalRepository journal(db);
  nlohmann::json decisions = nlohmann::json::array();
  for (const auto& row : journal.decisions(mission.id)) decisions.push_back(tracking::decision_json(row));
  nlohmann::json issues = nlohmann::json::array();
  for (const auto& row : journal.issues(mission.id)) issues.push_back(tracking::issue_json(row));
  nlohmann::json milestones = nlohmann::json::array();
  for (const auto& row : journal.milestones(mission.id)) milestones.push_back(tracking::milestone_json(row));
  return {{"mission", mission_summary(db, mission)},
          {"phases", std::move(phases)},
          {"tasks", std::move(task_list)},
          {"decisions", std::move(decisions)},
          {"issues", std::move(issues)},
          {"milestones", std::move(milestones)}};
}

nlohmann::json handle_mission_context(MethodContext& context, const nlohmann::json& params) {
  return tracking::mission_context(context.daemon.database(), params);
}

nlohmann::json handle_mission_check(MethodContext& context, const MissionCheckRequest& request) {
  store::Database& db = context.daemon.database();
  std::vector<std::string> ids;
  if (request.mission_id) {
    ids.push_back(*request.mission_id);
  } else {
    for (const auto& row : store::MissionRepository(db).list(SIZE_MAX >> 1, request.cwd)) {
      ids.push_back(row.id);
    }
  }
  nlohmann::json result = tracking::check_missions(db, ids, request.rules);
  if (!request.mission_id && request.cwd) result["cwd"] = *request.cwd;
  return result;
}

nlohmann::json handle_issue_resolve(MethodContext& context, const IssueResolveRequest& request) {
  store::Database& db = context.daemon.database();
  store::JournalRepository journal(db);
  auto issue = journal.find_issue(request.id);
  if (!issue) {
    throw MissionError(ErrorCode::not_found, "issue '" + request.id + "' does not exist",
                       "mission missions show MISSION lists its issues");
  }
  if (!issue->resolved_at) journal.resolve_issue(issue->id, execution::unix_ms_now(), request.note);
  auto mission_id = journal.mission_of_issue(issue->id);
  if (mission_id) {
    store::MissionRepository(db).touch(*mission_id, execution::unix_ms_now());
    if (auto event = tracking::mission_event(db, "updated", *mission_id, ""); !event.is_null()) {
      context.daemon.events().publish(std::move(event));
    }
  }
  return {{"issue", tracking::issue_json(*journal.find_issue(issue->id))}};
}

}  // namespace mission::daemon
