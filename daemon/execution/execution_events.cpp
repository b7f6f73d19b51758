#include "daemon/execution/execution_events.hpp"

#include "daemon/daemon.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"

namespace mission::daemon::execution {

void publish_execution(Daemon& daemon, std::string_view type, const std::string& execution_id) {
  if (!daemon.events().has_subscribers()) return;
  auto row = store::ExecutionRepository(daemon.database()).find(execution_id);
  if (!row) return;
  daemon.events().publish({{"type", type},
                           {"agentExecutionId", execution_id},
                           {"execution", execution_json(daemon.database(), *row)}});
}

void publish_observation(Daemon& daemon, const std::string& execution_id, const nlohmann::json& ack) {
  if (!daemon.events().has_subscribers() || ack.value("status", "") == "duplicate") return;
  auto row = store::ObservationRepository(daemon.database())
                 .find(execution_id, ack.value("eventId", ""));
  if (!row) return;
  daemon.events().publish({{"type", "observation.recorded"},
                           {"agentExecutionId", execution_id},
                           {"observation", observation_json(*row)}});
}

}  // namespace mission::daemon::execution
