#pragma once
// The events about executions (see events::EventSink), built into the batch
// of the unit of work that caused them:
//   execution.created      {agentExecutionId, execution}
//   execution.updated      {agentExecutionId, execution}: state, exit, sessions
//   observation.recorded   {agentExecutionId, observation}: a signal or diagnostic

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "daemon/events/event_sink.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::execution {

inline constexpr std::string_view kExecutionCreated = "execution.created";
inline constexpr std::string_view kExecutionUpdated = "execution.updated";

void add_execution_event(events::EventBatch& batch, store::Database& db, std::string_view type,
                         const std::string& execution_id);

// For the ledger's acknowledgement `ack`: the observation, and the
// execution when the signal may have changed its state. Duplicates are not
// news.
void add_signal_events(events::EventBatch& batch, store::Database& db,
                       const std::string& execution_id, const nlohmann::json& ack);

}  // namespace mission::daemon::execution
