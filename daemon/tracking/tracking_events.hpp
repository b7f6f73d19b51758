#pragma once
// The live events of tracking, named as in the seed: mission:created,
// mission:updated, phase:created, phase:updated, task:created,
// task:updated, and workflow:created / workflow:updated for legacy
// workflows. Each carries the caller's agentExecutionId and the record, in
// the control API's camelCase.

#include <string>
#include <string_view>

#include "daemon/events/event_sink.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tasks/task_lifecycle.hpp"

namespace mission::daemon::tracking {

// `change` is "created" or "updated"; the record is read from the store.
void add_mission_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                       const std::string& mission_id, const std::string& execution_id);
void add_phase_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                     const std::string& phase_id, const std::string& execution_id);
void add_task_event(events::EventBatch& batch, store::Database& db, std::string_view change,
                    const std::string& task_id, const std::string& execution_id);
// decision:added, issue:added or milestone:added (`kind`), with the entry
// as its tool answered it and the task and mission it is for.
void add_journal_event(events::EventBatch& batch, std::string_view kind, const store::TaskRow& task,
                       const std::string& execution_id, nlohmann::json entry);

// The task aggregate, announcing each change it makes as a task:updated or
// mission:updated event of `execution_id` in `batch`.
tasks::TaskLifecycle task_lifecycle(events::EventBatch& batch, store::Database& db,
                                    const std::string& execution_id);

}  // namespace mission::daemon::tracking
