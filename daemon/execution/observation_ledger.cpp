#include "daemon/execution/observation_ledger.hpp"

#include "daemon/execution/observation_policy.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/record_id.hpp"

namespace mission::daemon::execution {
namespace {

nlohmann::json ack(ObservationStatus status, const std::string& execution_id,
                   const std::string& event_id, std::int64_t observation_id) {
  return {{"status", status},
          {"agentExecutionId", execution_id},
          {"eventId", event_id},
          {"observationId", observation_id}};
}

}  // namespace

nlohmann::json ObservationLedger::record(const SignalObservation& observation) {
  store::ExecutionRepository executions(db_);
  store::ObservationRepository observations(db_);
  store::Transaction transaction(db_);

  if (observation.event_id) {
    if (auto existing = observations.find(observation.execution_id, *observation.event_id)) {
      nlohmann::json reply = ack(ObservationStatus::duplicate, observation.execution_id,
                                 existing->event_id, existing->id);
      reply["reason"] = "eventId already recorded as " + existing->kind + " (" +
                        std::string(name_of(existing->status)) + "); nothing was done again";
      return reply;
    }
  }
  auto execution = executions.find(observation.execution_id);
  if (!execution) {
    throw MissionError(ErrorCode::not_found,
                       "agent execution '" + observation.execution_id + "' does not exist",
                       "check the id with 'mission exec list'");
  }
  if (is_final(execution->state) && !accepted_after_final(observation.type)) {
    throw MissionError(ErrorCode::execution_final,
                       "agent execution '" + execution->id + "' is " +
                           std::string(name_of(execution->state)) +
                           "; only message signals are accepted now",
                       "use message to add a note; start a new execution for new work",
                       {{"state", execution->state}});
  }

  const std::int64_t now = unix_ms_now();
  store::ObservationRow row;
  row.execution_id = execution->id;
  row.event_id = observation.event_id.value_or(new_event_id());
  row.origin = observation.origin;
  row.kind = std::string(name_of(observation.type));
  row.payload = observation.payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  row.status = ack_status_for_signal(observation.type);
  row.created_at = now;
  auto id = observations.insert_unique(row);
  if (!id) {
    // Only a generated id can collide here, and only by astronomical chance.
    throw MissionError(ErrorCode::internal, "generated eventId collided; retry the call");
  }
  if (auto next = state_after_signal(execution->state, observation.type)) {
    execution->state = *next;
    execution->updated_at = now;
    executions.update(*execution);
  }
  transaction.commit();
  return ack(row.status, row.execution_id, row.event_id, *id);
}

nlohmann::json ObservationLedger::record_diagnostic(const std::string& execution_id,
                                                    const std::string& origin,
                                                    const std::string& key,
                                                    const std::string& reason,
                                                    const nlohmann::json& details) {
  store::ObservationRow row;
  row.execution_id = execution_id;
  row.event_id = key;
  row.origin = origin;
  row.kind = std::string(store::kDiagnosticKind);
  // An agent's bytes may be anything: invalid UTF-8 is kept as U+FFFD.
  row.payload = details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  row.status = ObservationStatus::rejected;
  row.reason = reason;
  row.created_at = unix_ms_now();
  auto id = store::ObservationRepository(db_).insert_unique(row);
  nlohmann::json reply = {
      {"status", id ? ObservationStatus::rejected : ObservationStatus::duplicate},
      {"agentExecutionId", execution_id},
      {"eventId", key},
      {"reason", reason}};
  if (id) reply["observationId"] = *id;
  return reply;
}

nlohmann::json ObservationLedger::record_screen_fact(const std::string& execution_id,
                                                     std::string_view kind, const std::string& key,
                                                     const nlohmann::json& payload) {
  return record_fact(execution_id, store::kScreenOrigin, kind, key, payload);
}

nlohmann::json ObservationLedger::record_fact(const std::string& execution_id,
                                              std::string_view origin, std::string_view kind,
                                              const std::string& key,
                                              const nlohmann::json& payload) {
  store::ObservationRow row;
  row.execution_id = execution_id;
  row.event_id = key;
  row.origin = std::string(origin);
  row.kind = std::string(kind);
  row.payload = payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  row.status = ObservationStatus::accepted;
  row.created_at = unix_ms_now();
  auto id = store::ObservationRepository(db_).insert_unique(row);
  if (!id) {
    return {{"status", ObservationStatus::duplicate},
            {"agentExecutionId", execution_id},
            {"eventId", key}};
  }
  return ack(ObservationStatus::accepted, execution_id, key, *id);
}

void ObservationLedger::promote_claims(const std::string& execution_id,
                                       ExecutionState final_state) {
  if (auto claim = claim_borne_out_by(final_state)) {
    store::ObservationRepository(db_).promote(execution_id, *claim);
  }
}

bool ack_is_news(const nlohmann::json& ack) {
  return ack.contains("eventId") &&
         ack.value("status", "") != name_of(ObservationStatus::duplicate);
}

bool ack_may_change_state(const nlohmann::json& ack) {
  return ack.value("status", "") == name_of(ObservationStatus::accepted);
}

}  // namespace mission::daemon::execution
