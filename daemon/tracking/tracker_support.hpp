#pragma once
// What the tracker's files share: reading optional arguments, and finding
// the records a call names with an error that says what to do instead.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"

namespace mission::daemon::tracking {

std::optional<std::string> text_arg(const nlohmann::json& args, const char* key);
// The argument as compact JSON text, for a JSON column.
std::optional<std::string> json_arg(const nlohmann::json& args, const char* key);

// The mission or workflow `id`; `field` names the argument for the error.
store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field);
store::TaskRow require_task(store::Database& db, const std::string& id);
// A mission that is still in progress, else invalid_argument.
void require_open(const store::MissionRow& mission);

// The working directory of the calling execution: where its snapshots are
// taken and what its missions belong to.
std::string execution_cwd(store::Database& db, const std::string& execution_id);

}  // namespace mission::daemon::tracking
