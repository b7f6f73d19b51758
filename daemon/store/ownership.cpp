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

void require_mission_writer(Database& db, const std::string& caller, const MissionRow& mission) {
  if (mission.execution_id == caller) return;
  if (GrantRepository(db).holds(caller, mission.id, std::nullopt)) return;
  refuse(caller, std::string(name_of(mission.kind)), mission.id, mission.execution_id);
}

void require_task_writer(Database& db, const std::string& caller, const TaskRow& task) {
  if (task.execution_id == caller) {
    // A planned task is written by whoever holds its claim. One whose
    // claim ended (its lease ran out, it was released) writes nothing
    // more until it claims the task again; an ended task's record stays
    // its last holder's.
    auto s =
        db.prepare("SELECT plan_order IS NOT NULL, claimed_by, status FROM tasks WHERE id = ?1");
    s.bind(1, task.id);
    if (!s.step() || s.integer(0) == 0) return;
    const std::optional<std::string> holder = s.optional_text(1);
    const TaskStatus status = s.name<TaskStatus>(2);
    if (holder == caller || (!holder && is_final(status))) return;
    auto mission = MissionRepository(db).find(task.mission_id);
    if (mission && mission->execution_id == caller) return;
    if (GrantRepository(db).holds(caller, task.mission_id, task.id)) return;
    throw MissionError(
        ErrorCode::forbidden,
        "agent execution " + caller + " no longer holds task " + task.id +
            (holder ? ": agent execution " + *holder + " does" : ": its claim ended"),
        holder ? "work on a task you hold (task_get_available lists the free ones)"
               : "claim it again with task_claim if it is still free, then go on",
        {{"task_id", task.id},
         {"claimed_by", holder ? nlohmann::json(*holder) : nlohmann::json()}});
  }
  auto mission = MissionRepository(db).find(task.mission_id);
  if (mission && mission->execution_id == caller) return;
  if (GrantRepository(db).holds(caller, task.mission_id, task.id)) return;
  refuse(caller, "task", task.id, task.execution_id);
}

}  // namespace mission::store
