#pragma once
// The one entry point through which every agent signal is recorded, whatever
// delivered it: idempotent by (execution, eventId), policy applied once, and
// acknowledged only after the commit.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::execution {

struct SignalObservation {
  std::string execution_id;
  std::string origin;                   // mcp-tool or stdout-marker
  std::optional<std::string> event_id;  // generated when absent
  SignalType type = SignalType::progress;
  nlohmann::json payload;  // the signal {type, ...}, already schema-valid
};

class ObservationLedger {
 public:
  explicit ObservationLedger(store::Database& db) : db_(db) {}

  // Records `observation` and returns its acknowledgement
  // {status, agentExecutionId, eventId, observationId?, reason?}. A known
  // eventId is answered `duplicate` with no second effect. Throws
  // MissionError not_found or execution_final. Runs in its own transaction
  // (a savepoint inside the caller's).
  nlohmann::json record(const SignalObservation& observation);

  // Records what the daemon noticed on a delivery path (a malformed or
  // oversized marker, a marker for another execution) as a rejected
  // diagnostic observation that changes nothing. `key` dedupes it, e.g.
  // "marker-line-12". Returns the acknowledgement with status rejected.
  nlohmann::json record_diagnostic(const std::string& execution_id, const std::string& origin,
                                   const std::string& key, const std::string& reason,
                                   const nlohmann::json& details);

  // Records what the daemon read on the execution's screen (a permission
  // prompt, its clearing, the answer typed into it) as an accepted
  // observation of origin "screen" that changes no state. `key` dedupes it.
  // Returns the acknowledgement.
  nlohmann::json record_screen_fact(const std::string& execution_id, std::string_view kind,
                                    const std::string& key, const nlohmann::json& payload);
  // The same for a fact of origin `origin`: what an agent reported over a
  // structured channel ("acp": its messages, tool calls, plans and
  // permission requests), or what the daemon read elsewhere ("output": a
  // refused write read from the agent's output).
  nlohmann::json record_fact(const std::string& execution_id, std::string_view origin,
                             std::string_view kind, const std::string& key,
                             const nlohmann::json& payload);

  // Marks the claim observations that the final state bears out (a
  // completed_claim of a completed execution, a failed_claim of a failed
  // one) as promoted.
  void promote_claims(const std::string& execution_id, ExecutionState final_state);

 private:
  store::Database& db_;
};

// Whether an acknowledgement says the signal changed something worth
// publishing (not a duplicate).
bool ack_is_news(const nlohmann::json& ack);
// Whether it may have changed the execution's state.
bool ack_may_change_state(const nlohmann::json& ack);

}  // namespace mission::daemon::execution
