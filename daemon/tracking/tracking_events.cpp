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

void add_mission_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                       const std::string& mission_id, const std::string& execution_id) {
  if (!batch.wanted()) return;
  auto row = store::MissionRepository(db).find(mission_id);
  if (!row) return;
  nlohmann::json out =
      event(std::string(name_of(row->kind)) + ":" + std::string(change), execution_id);
  out["mission"] = mission_json(*row, KeyStyle::camel);
  batch.add(std::move(out));
}

void add_phase_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                     const std::string& phase_id, const std::string& execution_id) {
  if (!batch.wanted()) return;
  auto row = store::MissionRepository(db).find_phase_by_id(phase_id);
  if (!row) return;
  auto counts = store::TaskRepository(db).tasks_per_phase(row->mission_id);
  nlohmann::json out = event("phase:" + std::string(change), execution_id);
  out["missionId"] = row->mission_id;
  out["phase"] = phase_json(*row, counts.count(row->id) ? counts.at(row->id) : 0, KeyStyle::camel);
  batch.add(std::move(out));
}

void add_task_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                    const std::string& task_id, const std::string& execution_id) {
  if (!batch.wanted()) return;
  auto row = store::TaskRepository(db).find(task_id);
  if (!row) return;
  auto changes = load_task_changes(db, std::span(&row->id, 1));
  nlohmann::json out = event("task:" + std::string(change), execution_id);
  out["task"] = task_json(*row, changes[row->id], KeyStyle::camel);
  batch.add(std::move(out));
}

void add_journal_event(events::EventBatch& batch, std::string_view kind, const store::TaskRow& task,
                       const std::string& execution_id, nlohmann::json entry) {
  if (!batch.wanted()) return;
  nlohmann::json out = event(std::string(kind) + ":added", execution_id);
  out["missionId"] = task.mission_id;
  out["taskId"] = task.id;
  out["entry"] = std::move(entry);
  batch.add(std::move(out));
}

tasks::TaskLifecycle task_lifecycle(events::EventBatch& batch, store::Database& db,
                                    const std::string& execution_id) {
  return {db, [&batch, &db, execution_id](std::string_view kind, std::string_view change,
                                          const std::string& id) {
            if (kind == "task") {
              add_task_event(batch, db, change, id, execution_id);
            } else {
              add_mission_event(batch, db, change, id, execution_id);
            }
          }};
}

}  // namespace mission::daemon::tracking
