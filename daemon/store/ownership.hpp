#pragma once
// Who may change a tracked record (mission-mcp(7), OWNERSHIP; docs/adr/0016): its
// owner, the execution that created it; for a task also the owner of its
// mission (a coordinator over its work); and any execution granted the
// mission or the task (by its owner, a person or a workflow run). Anyone
// else is refused `forbidden`. Reading is open to every execution. Here,
// below the domains, so tracking and planning hold the same rule.

#include <string>

#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"

namespace mission::store {

// Throws forbidden unless `caller` may change `mission` (complete it, start
// tasks in it, set its plan).
void require_mission_writer(Database& db, const std::string& caller, const MissionRow& mission);

// Throws forbidden unless `caller` may change `task` (complete it, log
// against it, start a subtask under it, checkpoint it).
void require_task_writer(Database& db, const std::string& caller, const TaskRow& task);

}  // namespace mission::store
