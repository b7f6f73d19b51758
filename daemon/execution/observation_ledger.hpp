#pragma once
// The one entry point through which every agent signal is recorded, whatever
// delivered it: idempotent by (execution, eventId), policy applied once, and
// acknowledged only after the commit.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::daemon::execution {

struct SignalObservation {
  std::string execution_id;
  std::string origin;                   // mcp-tool or stdout-marker
  std::optional<std::string> event_id;  // generated when absent
  nlohmann::json signal;                // {type, ...}, already schema-valid
};

class ObservationLedger {
 public:
  explicit ObservationLedger(store::Database& db) : db_(db) {}

  // Records `observation` and returns its acknowledgement
  // {status, agentExecutionId, eventId, observationId?, reason?}. A known
  // eventId is answered `duplicate` with no second effect. Throws
  // MissionError not_found or execution_final.
  nlohmann::json record(const SignalObservation& observation);

 private:
  store::Database& db_;
};

}  // namespace mission::daemon::execution
