// The signals toolset: one tool per signal type, each recording the signal in
// the execution's observation ledger and answering with its acknowledgement.

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/mcp/tool_table.hpp"

namespace mission::daemon::mcp {
namespace {

// A signal tool's input is the signal payload plus an optional eventId
// (the schema tests hold them so); the payload is stored as given.
struct SignalRequest {
  std::optional<std::string> event_id;
  nlohmann::json payload;
};

void from_json(const nlohmann::json& j, SignalRequest& request) {
  request.payload = j;
  if (auto it = request.payload.find("eventId"); it != request.payload.end()) {
    request.event_id = it->get<std::string>();
    request.payload.erase(it);
  }
}

template <SignalType Type>
nlohmann::json record_signal(ToolContext& context, const SignalRequest& request) {
  nlohmann::json payload = request.payload;
  payload["type"] = Type;
  nlohmann::json ack =
      execution::ObservationLedger(context.db)
          .record({context.execution_id, "mcp-tool", request.event_id, Type, std::move(payload)});
  execution::add_signal_events(context.events, context.db, context.execution_id, ack);
  return ack;
}

template <SignalType Type>
constexpr ToolRow signal_row(std::string_view name) {
  return {name, ToolMode::immediate, true, immediate<SignalRequest, record_signal<Type>>};
}

}  // namespace

std::span<const ToolRow> signal_tools() {
  static constexpr ToolRow kTools[] = {
      signal_row<SignalType::progress>("progress"),
      signal_row<SignalType::needs_input>("needs_input"),
      signal_row<SignalType::blocked>("blocked"),
      signal_row<SignalType::ready_for_verification>("ready_for_verification"),
      signal_row<SignalType::completed_claim>("completed_claim"),
      signal_row<SignalType::failed_claim>("failed_claim"),
      signal_row<SignalType::message>("message"),
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
