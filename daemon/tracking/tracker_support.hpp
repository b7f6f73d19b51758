#pragma once
// What the tracker's files share: finding the records a call names with an
// error that says what to do instead, and the mission's status rules.

#include <optional>
#include <string>

#include "daemon/events/event_sink.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"

namespace mission::daemon::tracking {

// The mission or workflow `id`; `field` names the argument for the error.
store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field);
store::TaskRow require_task(store::Database& db, const std::string& id);
// A mission that has not ended (in progress or blocked), else invalid_argument.
void require_open(const store::MissionRow& mission);

// The working directory of the calling execution: where its snapshots are
// taken and what its missions belong to.
std::string execution_cwd(store::Database& db, const std::string& execution_id);

// A blocker was opened in `mission`: an open mission becomes blocked.
void mark_blocked(store::Database& db, events::EventBatch& events, const store::MissionRow& mission,
                  const std::string& execution_id);

}  // namespace mission::daemon::tracking
