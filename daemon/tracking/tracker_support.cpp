#include "daemon/tracking/tracker_support.hpp"

#include "daemon/store/execution_repository.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::tracking {

std::optional<std::string> text_arg(const nlohmann::json& args, const char* key) {
  if (!args.contains(key) || !args.at(key).is_string()) return std::nullopt;
  return args.at(key).get<std::string>();
}

std::optional<std::string> json_arg(const nlohmann::json& args, const char* key) {
  if (!args.contains(key) || args.at(key).is_null()) return std::nullopt;
  return args.at(key).dump();
}

store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field) {
  auto row = store::MissionRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, std::string(field) + " '" + id + "' does not exist",
                       "use the id start_mission (or start_workflow) returned; "
                       "'mission missions list' shows them",
                       {{"field", field}, {"id", id}});
  }
  return *row;
}

store::TaskRow require_task(store::Database& db, const std::string& id) {
  auto row = store::TaskRepository(db).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "task_id '" + id + "' does not exist",
                       "use the task_id start_task returned", {{"field", "task_id"}, {"id", id}});
  }
  return *row;
}

void require_open(const store::MissionRow& mission) {
  if (mission.status == "in_progress") return;
  throw MissionError(ErrorCode::invalid_argument,
                     mission.kind + " " + mission.id + " is already " + mission.status,
                     mission.kind == "workflow" ? "start a new workflow with start_workflow"
                                                : "start a new mission with start_mission",
                     {{"id", mission.id}, {"status", mission.status}});
}

std::string execution_cwd(store::Database& db, const std::string& execution_id) {
  auto row = store::ExecutionRepository(db).find(execution_id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "agent execution " + execution_id + " is gone",
                       "reconnect with mission mcp connect");
  }
  return row->cwd;
}

}  // namespace mission::daemon::tracking
