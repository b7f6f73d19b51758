#include "daemon/execution/execution_events.hpp"

#include "daemon/execution/execution_view.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"

namespace mission::daemon::execution {

void add_execution_event(events::EventBatch& batch, store::Database& db, std::string_view type,
                         const std::string& execution_id) {
  if (!batch.wanted()) return;
  auto row = store::ExecutionRepository(db).find(execution_id);
  if (!row) return;
  batch.add({{"type", type},
             {"agentExecutionId", execution_id},
             {"execution", execution_json(db, *row)}});
}

void add_signal_events(events::EventBatch& batch, store::Database& db,
                       const std::string& execution_id, const nlohmann::json& ack) {
  if (!batch.wanted() || !ack_is_news(ack)) return;
  if (auto row = store::ObservationRepository(db).find(execution_id, ack.value("eventId", ""))) {
    batch.add({{"type", "observation.recorded"},
               {"agentExecutionId", execution_id},
               {"observation", observation_json(*row)}});
  }
  if (ack_may_change_state(ack)) add_execution_event(batch, db, kExecutionUpdated, execution_id);
}

}  // namespace mission::daemon::execution
