#include "daemon/store/grant_repository.hpp"

namespace mission::store {

void GrantRepository::grant_mission(const std::string& execution_id, const std::string& mission_id,
                                    const std::optional<std::string>& granted_by,
                                    std::int64_t now) {
  db_.prepare(
         "INSERT INTO grants (execution_id, mission_id, granted_by, created_at) VALUES (?,?,?,?)")
      .bind(1, execution_id)
      .bind(2, mission_id)
      .bind(3, granted_by)
      .bind(4, now)
      .run();
}

void GrantRepository::grant_task(const std::string& execution_id, const std::string& task_id,
                                 const std::optional<std::string>& granted_by, std::int64_t now) {
  db_.prepare("INSERT INTO grants (execution_id, task_id, granted_by, created_at) VALUES (?,?,?,?)")
      .bind(1, execution_id)
      .bind(2, task_id)
      .bind(3, granted_by)
      .bind(4, now)
      .run();
}

bool GrantRepository::holds(const std::string& execution_id, const std::string& mission_id,
                            const std::optional<std::string>& task_id) {
  auto s = db_.prepare(
      "SELECT EXISTS (SELECT 1 FROM grants WHERE execution_id = ?1 AND "
      "(mission_id = ?2 OR (?3 IS NOT NULL AND task_id = ?3)))");
  s.bind(1, execution_id).bind(2, mission_id).bind(3, task_id);
  s.step();
  return s.integer(0) != 0;
}

}  // namespace mission::store
