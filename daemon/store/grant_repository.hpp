#pragma once
// Persistence of grants (the grants table): which executions besides a
// record's owner may change a mission (and its tasks) or one task.

#include <cstdint>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::store {

class GrantRepository {
 public:
  explicit GrantRepository(Database& db) : db_(db) {}

  // Lets `execution_id` change mission `mission_id` and its tasks.
  void grant_mission(const std::string& execution_id, const std::string& mission_id,
                     const std::optional<std::string>& granted_by, std::int64_t now);
  // Lets `execution_id` change task `task_id`.
  void grant_task(const std::string& execution_id, const std::string& task_id,
                  const std::optional<std::string>& granted_by, std::int64_t now);
  // Whether `execution_id` holds a grant on the mission, or on the task.
  bool holds(const std::string& execution_id, const std::string& mission_id,
             const std::optional<std::string>& task_id);

 private:
  Database& db_;
};

}  // namespace mission::store
