#include "daemon/tracking/tracker_support.hpp"

#include "daemon/store/execution_repository.hpp"
#include "daemon/store/required_rows.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::tracking {

store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field) {
  return store::require_mission(db, id, field,
                                "use the id start_mission (or start_workflow) returned");
}

store::TaskRow require_task(store::Database& db, const std::string& id) {
  return store::require_task(db, id, "task_id", "use the task_id start_task returned");
}

void require_open(const store::MissionRow& mission) {
  if (!is_final(mission.status)) return;
  const std::string kind(name_of(mission.kind));
  throw MissionError(
      ErrorCode::invalid_argument,
      kind + " " + mission.id + " is already " + std::string(name_of(mission.status)),
      mission.kind == MissionKind::workflow ? "start a new workflow with start_workflow"
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

void mark_blocked(store::Database& db, events::EventBatch& events, const store::MissionRow& mission,
                  const std::string& execution_id) {
  if (mission.status != MissionStatus::in_progress && mission.status != MissionStatus::pending)
    return;
  store::MissionRepository(db).set_status(mission.id, MissionStatus::blocked, unix_ms_now());
  add_mission_event(events, db, "updated", mission.id, execution_id);
}

}  // namespace mission::daemon::tracking
