#include "daemon/execution/protocol_descriptor.hpp"

#include "daemon/execution/agent_execution.hpp"

namespace mission::daemon::execution {

std::span<const SignalDescriptor> signal_descriptors() {
  static constexpr SignalDescriptor kSignals[] = {
      {"progress", "Progress", "progress"},
      {"needs_input", "Needs input", "input-request"},
      {"blocked", "Blocked", "input-request"},
      {"ready_for_verification", "Ready for verification", "claim"},
      {"completed_claim", "Claims completion", "claim"},
      {"failed_claim", "Claims failure", "claim"},
      {"message", "Message", "audit-message"},
  };
  return kSignals;
}

const std::vector<std::string>& default_toolsets() {
  static const std::vector<std::string> kDefault{"signals", "tracking"};
  return kDefault;
}

nlohmann::json build_protocol_descriptor(const DescriptorSpec& spec) {
  nlohmann::json signals = nlohmann::json::array();
  for (const SignalDescriptor& signal : signal_descriptors()) {
    signals.push_back({{"type", signal.type},
                       {"label", signal.label},
                       {"payloadSchemaKey", "signals/" + std::string(signal.type)},
                       {"deliveries", {spec.delivery}},
                       {"policy", signal.policy}});
  }
  nlohmann::json descriptor = {{"version", 1},
                               {"owner", {{"type", "agent-execution"}, {"id", spec.execution_id}}},
                               {"scope", {{"cwd", spec.cwd}}},
                               {"signals", std::move(signals)},
                               {"toolsets", spec.toolsets}};
  if (spec.delivery == kDeliveryMcp) {
    descriptor["mcp"] = {{"serverName", "mission"}, {"exposure", "session-scoped"},
                         {"publicApi", false}};
  }
  return descriptor;
}

std::vector<std::string> descriptor_toolsets(const nlohmann::json& descriptor) {
  std::vector<std::string> toolsets;
  if (!descriptor.is_object() || !descriptor.contains("toolsets")) return toolsets;
  for (const auto& name : descriptor.at("toolsets")) {
    if (name.is_string()) toolsets.push_back(name.get<std::string>());
  }
  return toolsets;
}

}  // namespace mission::daemon::execution
