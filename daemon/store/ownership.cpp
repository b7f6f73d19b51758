#include "daemon/store/ownership.hpp"

#include "daemon/store/grant_repository.hpp"
#include "shared/error_code.hpp"

namespace mission::store {
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

void require_mission_writer(Database& db, const std::string& caller,
                            const MissionRow& mission) {
  if (mission.execution_id == caller) return;
  if (GrantRepository(db).holds(caller, mission.id, std::nullopt)) return;
  refuse(caller, std::string(name_of(mission.kind)), mission.id, mission.execution_id);
}

void require_task_writer(Database& db, const std::string& caller, const TaskRow& task) {
  if (task.execution_id == caller) return;
  auto mission = MissionRepository(db).find(task.mission_id);
  if (mission && mission->execution_id == caller) return;
  if (GrantRepository(db).holds(caller, task.mission_id, task.id)) return;
  refuse(caller, "task", task.id, task.execution_id);
}

}  // namespace mission::store
