#pragma once
// The live events of tracking, named as in the seed: mission:created,
// mission:updated, phase:created, phase:updated, task:created,
// task:updated, and workflow:created / workflow:updated for legacy
// workflows. Each carries the caller's agentExecutionId and the record.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::daemon::tracking {

// `change` is "created" or "updated"; the event is read from the store.
nlohmann::json mission_event(store::Database& db, std::string_view change,
                             const std::string& mission_id, const std::string& execution_id);
nlohmann::json phase_event(store::Database& db, std::string_view change,
                           const std::string& phase_id, const std::string& execution_id);
nlohmann::json task_event(store::Database& db, std::string_view change, const std::string& task_id,
                          const std::string& execution_id);

}  // namespace mission::daemon::tracking
