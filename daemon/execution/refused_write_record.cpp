#include "daemon/execution/refused_write_record.hpp"

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/sandbox_limits.hpp"

namespace mission::daemon::execution {

void record_refused_writes(store::Database& db, events::EventBatch& batch,
                           const std::string& execution_id,
                           const std::vector<sandbox::RefusedWrite>& writes) {
  if (writes.empty()) return;
  store::Transaction transaction(db);
  ObservationLedger ledger(db);
  for (const sandbox::RefusedWrite& write : writes) {
    nlohmann::json ack = ledger.record_fact(execution_id, store::kOutputOrigin,
                                            store::kRefusedWriteKind, "refused-write:" + write.path,
                                            {{"path", write.path}, {"operation", write.operation}});
    add_signal_events(batch, db, execution_id, ack);
  }
  transaction.commit();
}

std::vector<sandbox::RefusedWrite> refused_writes_of(store::Database& db,
                                                     const std::string& execution_id) {
  std::vector<sandbox::RefusedWrite> writes;
  for (const store::ObservationRow& row : store::ObservationRepository(db).of_kind(
           execution_id, store::kRefusedWriteKind, limits::kMaxRefusedWritesPerExecution)) {
    nlohmann::json payload = parse_json_or_discarded(row.payload);
    if (!payload.is_object()) continue;
    writes.push_back({payload.value("path", ""), payload.value("operation", "write")});
  }
  return writes;
}

nlohmann::json refused_writes_json(const std::vector<sandbox::RefusedWrite>& writes) {
  nlohmann::json out = nlohmann::json::array();
  for (const sandbox::RefusedWrite& write : writes) {
    out.push_back(
        {{"path", write.path}, {"operation", write.operation}, {"from", "the agent's output"}});
  }
  return out;
}

}  // namespace mission::daemon::execution
