#include "daemon/execution/observation_ledger.hpp"

#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/observation_policy.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::execution {
namespace {

nlohmann::json ack(std::string_view status, const std::string& execution_id,
                   const std::string& event_id, std::int64_t observation_id) {
  return {{"status", status},
          {"agentExecutionId", execution_id},
          {"eventId", event_id},
          {"observationId", observation_id}};
}

}  // namespace

nlohmann::json ObservationLedger::record(const SignalObservation& observation) {
  const std::string signal_type = observation.signal.at("type").get<std::string>();
  store::ExecutionRepository executions(db_);
  store::ObservationRepository observations(db_);
  store::Transaction transaction(db_);

  if (observation.event_id) {
    if (auto existing = observations.find(observation.execution_id, *observation.event_id)) {
      nlohmann::json reply =
          ack("duplicate", observation.execution_id, existing->event_id, existing->id);
      reply["reason"] = "eventId already recorded as " + existing->kind + " (" + existing->status +
                        "); nothing was done again";
      return reply;
    }
  }
  auto execution = executions.find(observation.execution_id);
  if (!execution) {
    throw MissionError(ErrorCode::not_found,
                       "agent execution '" + observation.execution_id + "' does not exist",
                       "check the id with 'mission exec list'");
  }
  if (is_final_state(execution->state) && !accepted_after_final(signal_type)) {
    throw MissionError(ErrorCode::execution_final,
                       "agent execution '" + execution->id + "' is " + execution->state +
                           "; only message signals are accepted now",
                       "use message to add a note; start a new execution for new work",
                       {{"state", execution->state}});
  }

  std::int64_t now = unix_ms_now();
  store::ObservationRow row;
  row.execution_id = execution->id;
  row.event_id = observation.event_id.value_or(new_event_id());
  row.origin = observation.origin;
  row.kind = signal_type;
  row.payload = observation.signal.dump();
  row.status = std::string(ack_status_for_signal(signal_type));
  row.created_at = now;
  auto id = observations.insert_unique(row);
  if (!id) {
    // Only a generated id can collide here, and only by astronomical chance.
    throw MissionError(ErrorCode::internal, "generated eventId collided; retry the call");
  }
  if (auto next = state_after_signal(execution->state, signal_type)) {
    execution->state = std::string(*next);
    execution->updated_at = now;
    executions.update(*execution);
  }
  transaction.commit();
  return ack(row.status, row.execution_id, row.event_id, *id);
}

}  // namespace mission::daemon::execution

namespace mission::daemon::execution {

nlohmann::json ObservationLedger::record_diagnostic(const std::string& execution_id,
                                                    const std::string& origin,
                                                    const std::string& key,
                                                    const std::string& reason,
                                                    const nlohmann::json& details) {
  store::ObservationRow row;
  row.execution_id = execution_id;
  row.event_id = key;
  row.origin = origin;
  row.kind = "diagnostic";
  row.payload = details.dump();
  row.status = "rejected";
  row.reason = reason;
  row.created_at = unix_ms_now();
  auto id = store::ObservationRepository(db_).insert_unique(row);
  nlohmann::json reply = {{"status", id ? "rejected" : "duplicate"},
                          {"agentExecutionId", execution_id},
                          {"eventId", key},
                          {"reason", reason}};
  if (id) reply["observationId"] = *id;
  return reply;
}

void ObservationLedger::promote_claims(const std::string& execution_id,
                                       std::string_view final_state) {
  std::string_view claim = final_state == kCompleted ? "completed_claim"
                           : final_state == kFailed  ? "failed_claim"
                                                     : "";
  if (claim.empty()) return;
  auto s = db_.prepare(
      "UPDATE observations SET status = 'promoted' WHERE execution_id = ?1 AND kind = ?2 AND "
      "status = 'recorded-only'");
  s.bind(1, execution_id).bind(2, claim);
  s.run();
}

}  // namespace mission::daemon::execution
