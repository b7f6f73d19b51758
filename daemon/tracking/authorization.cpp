#include "daemon/tracking/authorization.hpp"

#include "daemon/store/grant_repository.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::tracking {
namespace {

[[noreturn]] void refuse(const std::string& caller, const std::string& what, const std::string& id,
                         const std::optional<std::string>& owner) {
  throw MissionError(ErrorCode::forbidden,
                     "agent execution " + caller + " may not change " + what + " " + id +
                         (owner ? ", which belongs to " + *owner : ", which has no owner left"),
                     "change only what this execution started; to work on it, ask its owner or a "
                     "person to grant it, or start your own with start_mission or start_task",
                     {{"id", id}, {"owner", owner ? nlohmann::json(*owner) : nlohmann::json()}});
}

}  // namespace

void require_mission_writer(store::Database& db, const std::string& caller,
                            const store::MissionRow& mission) {
  if (mission.execution_id == caller) return;
  if (store::GrantRepository(db).holds(caller, mission.id, std::nullopt)) return;
  refuse(caller, std::string(name_of(mission.kind)), mission.id, mission.execution_id);
}

void require_task_writer(store::Database& db, const std::string& caller, const store::TaskRow& task) {
  if (task.execution_id == caller) return;
  auto mission = store::MissionRepository(db).find(task.mission_id);
  if (mission && mission->execution_id == caller) return;
  if (store::GrantRepository(db).holds(caller, task.mission_id, task.id)) return;
  refuse(caller, "task", task.id, task.execution_id);
}

}  // namespace mission::daemon::tracking
