#pragma once
// What the planning files share: who calls, and finding the records a call
// names with an error that says what to do instead.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tasks/task_lifecycle.hpp"
#include "shared/key_style.hpp"

namespace mission::daemon::planning {

class PlanCache;

// Who calls, recorded on every row it makes. `notify(kind, change, id)`
// tells the live events that a record changed ("mission" or "task",
// "created" or "updated"); the layer that builds the Caller publishes them
// the way tracking does, once the transaction commits. May be empty.
struct Caller {
  store::Database& db;
  std::string execution_id;
  std::function<void(std::string_view kind, std::string_view change, const std::string& id)>
      on_change;
  // The daemon's DAG cache, whose kept shapes spare a writer a full load; may be null.
  PlanCache* plans = nullptr;
  // A person at the shell (the control API) has no execution: execution_id
  // is empty, the records it makes have no owner, and this is their
  // working directory.
  std::string cwd;

  void notify(std::string_view kind, std::string_view change, const std::string& id) const {
    if (on_change) on_change(kind, change, id);
  }
};

// The task aggregate, announcing its changes as this caller does.
inline tasks::TaskLifecycle lifecycle_of(const Caller& caller) {
  return {caller.db, caller.on_change};
}

// Any tracked record (mission, workflow, planned workflow) by id.
store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field);
store::TaskRow require_task(store::Database& db, const std::string& id);
// A planned workflow (kind planned), else not_found or invalid_argument.
store::MissionRow require_workflow(store::Database& db, const std::string& id, const char* field);
store::PlannedTaskRow require_planned_task(store::Database& db, const std::string& id,
                                           const char* field);
// The working directory of the calling execution.
std::string execution_cwd(store::Database& db, const std::string& execution_id);
nlohmann::json repository_json(const store::RepositoryRow& row, KeyStyle style);

}  // namespace mission::daemon::planning
