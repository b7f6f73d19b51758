#pragma once
// The events the daemon publishes about executions (see EventBus):
//   execution.created      {agentExecutionId, execution}
//   execution.updated      {agentExecutionId, execution}: state, exit, sessions
//   observation.recorded   {agentExecutionId, observation}: a signal or diagnostic

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mission::daemon {
class Daemon;
}

namespace mission::daemon::execution {

void publish_execution(Daemon& daemon, std::string_view type, const std::string& execution_id);

// `ack` is the ledger's acknowledgement; duplicates are not news.
void publish_observation(Daemon& daemon, const std::string& execution_id, const nlohmann::json& ack);

}  // namespace mission::daemon::execution
