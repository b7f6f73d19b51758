// start_mission, start_workflow and complete_mission.

#include <set>

#include "daemon/execution/agent_execution.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// The seed's profiles: simple = 2 phases, standard = 3, complex = 4 or more.
std::int64_t phases_of_profile(const std::string& profile) {
  if (profile == "simple") return 2;
  if (profile == "complex") return 4;
  return 3;
}

store::MissionRow new_record(Caller& caller, std::string kind, std::string_view prefix,
                             const nlohmann::json& args) {
  store::MissionRow row;
  row.id = execution::new_random_id(prefix, 10);
  row.kind = std::move(kind);
  row.execution_id = caller.execution_id;
  row.cwd = execution_cwd(caller.db, caller.execution_id);
  row.name = args.at("name").get<std::string>();
  row.description = text_arg(args, "description");
  row.status = "in_progress";
  row.created_at = row.updated_at = execution::unix_ms_now();
  return row;
}

// Distinct paths in the change sets of `tasks`.
std::size_t files_changed(const std::vector<store::TaskRow>& tasks) {
  std::set<std::string> paths;
  for (const auto& task : tasks) {
    if (!task.files_changed) continue;
    nlohmann::json changes = nlohmann::json::parse(*task.files_changed, nullptr, false);
    for (const char* kind : {"added", "modified", "deleted"}) {
      for (const auto& path : changes.value(kind, nlohmann::json::array())) {
        paths.insert(path.get<std::string>());
      }
    }
  }
  return paths.size();
}

}  // namespace

nlohmann::json start_mission(Caller& caller, const nlohmann::json& args) {
  store::MissionRow row = new_record(caller, "mission", "ms-", args);
  row.objective = text_arg(args, "objective");
  row.profile = text_arg(args, "profile").value_or("standard");
  row.scope = text_arg(args, "scope");
  row.constraints = text_arg(args, "constraints");
  row.total_phases = args.contains("total_phases") ? args.at("total_phases").get<std::int64_t>()
                                                   : phases_of_profile(*row.profile);
  store::MissionRepository(caller.db).insert(row);
  caller.events.push_back(mission_event(caller.db, "created", row.id, caller.execution_id));
  return {{"mission_id", row.id},
          {"profile", *row.profile},
          {"total_phases", *row.total_phases},
          {"created_at", format_utc_iso8601(row.created_at)}};
}

nlohmann::json start_workflow(Caller& caller, const nlohmann::json& args) {
  store::MissionRow row = new_record(caller, "workflow", "wf-", args);
  row.plan = json_arg(args, "plan");
  store::MissionRepository(caller.db).insert(row);
  caller.events.push_back(mission_event(caller.db, "created", row.id, caller.execution_id));
  return {{"workflow_id", row.id}, {"created_at", format_utc_iso8601(row.created_at)}};
}

nlohmann::json complete_mission(Caller& caller, const nlohmann::json& args) {
  store::MissionRow row = require_mission(caller.db, args.at("mission_id").get<std::string>(),
                                          "mission_id");
  require_open(row);
  row.status = args.at("status").get<std::string>();
  row.summary = args.at("summary").get<std::string>();
  row.achievements = json_arg(args, "achievements").value_or("[]");
  row.limitations = json_arg(args, "limitations").value_or("[]");
  row.completed_at = row.updated_at = execution::unix_ms_now();
  store::MissionRepository missions(caller.db);
  missions.complete(row);

  auto tasks = store::TaskRepository(caller.db).list_for_mission(row.id);
  std::int64_t seconds = duration_seconds(row.created_at, *row.completed_at);
  nlohmann::json metrics = {{"total_phases", missions.phases(row.id).size()},
                            {"total_tasks", tasks.size()},
                            {"total_duration_seconds", seconds},
                            {"total_duration_minutes", seconds / 60},
                            {"files_changed", files_changed(tasks)}};
  caller.events.push_back(mission_event(caller.db, "updated", row.id, caller.execution_id));
  return {{"mission_id", row.id},
          {"status", row.status},
          {"summary", *row.summary},
          {"achievements", nlohmann::json::parse(*row.achievements)},
          {"limitations", nlohmann::json::parse(*row.limitations)},
          {"metrics", std::move(metrics)},
          {"completed_at", format_utc_iso8601(*row.completed_at)}};
}

}  // namespace mission::daemon::tracking
