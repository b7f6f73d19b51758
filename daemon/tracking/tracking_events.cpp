#include "daemon/tracking/tracking_events.hpp"

#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracking_view.hpp"

namespace mission::daemon::tracking {
namespace {

nlohmann::json event(std::string type, const std::string& execution_id) {
  nlohmann::json out = {{"type", std::move(type)}};
  if (!execution_id.empty()) out["agentExecutionId"] = execution_id;
  return out;
}

}  // namespace

nlohmann::json mission_event(store::Database& db, std::string_view change,
                             const std::string& mission_id, const std::string& execution_id) {
  auto row = store::MissionRepository(db).find(mission_id);
  if (!row) return nullptr;
  nlohmann::json out = event(row->kind + ":" + std::string(change), execution_id);
  out["mission"] = mission_json(*row);
  return out;
}

nlohmann::json phase_event(store::Database& db, std::string_view change,
                           const std::string& phase_id, const std::string& execution_id) {
  store::MissionRepository missions(db);
  auto row = missions.find_phase_by_id(phase_id);
  if (!row) return nullptr;
  std::size_t tasks = 0;
  for (const auto& task : store::TaskRepository(db).list_for_mission(row->mission_id)) {
    if (task.phase_id == row->id) ++tasks;
  }
  nlohmann::json out = event("phase:" + std::string(change), execution_id);
  out["mission_id"] = row->mission_id;
  out["phase"] = phase_json(*row, tasks);
  return out;
}

nlohmann::json task_event(store::Database& db, std::string_view change, const std::string& task_id,
                          const std::string& execution_id) {
  auto row = store::TaskRepository(db).find(task_id);
  if (!row) return nullptr;
  nlohmann::json out = event("task:" + std::string(change), execution_id);
  out["task"] = task_json(*row);
  return out;
}

}  // namespace mission::daemon::tracking
