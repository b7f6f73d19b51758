#pragma once
// A record a call names must exist. One lookup for every domain; the hint
// (where to find a right id) is the caller's, in the words of the surface
// that shows it: an agent's tool names the tool that lists the ids, a
// person's command names the command.

#include <string>
#include <string_view>

#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"

namespace mission::store {

// The mission or workflow `id`, else not_found "<field> '<id>' does not
// exist" with `hint` and the details {field, id}.
MissionRow require_mission(Database& db, const std::string& id, std::string_view field,
                           std::string_view hint);
// The task `id`, likewise.
TaskRow require_task(Database& db, const std::string& id, std::string_view field,
                     std::string_view hint);

}  // namespace mission::store
