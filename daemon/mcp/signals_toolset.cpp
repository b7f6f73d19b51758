// The signals toolset: one tool per signal type, each recording the signal in
// the execution's observation ledger and answering with its acknowledgement.

#include "daemon/execution/observation_ledger.hpp"
#include "daemon/mcp/toolsets.hpp"

namespace mission::daemon::mcp {

ToolOutcome call_signal_tool(ToolContext& context, const ToolDefinition& tool,
                             const nlohmann::json& arguments) {
  execution::SignalObservation observation;
  observation.execution_id = context.execution_id;
  observation.origin = "mcp-tool";
  // The tool input is the signal payload plus eventId (checked by the schema
  // tests), so the payload is the input without it and with its type.
  observation.signal = arguments;
  if (auto it = observation.signal.find("eventId"); it != observation.signal.end()) {
    observation.event_id = it->get<std::string>();
    observation.signal.erase(it);
  }
  observation.signal["type"] = tool.signal;
  return execution::ObservationLedger(context.db).record(observation);
}

}  // namespace mission::daemon::mcp
