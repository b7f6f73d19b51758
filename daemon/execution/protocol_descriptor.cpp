#include "daemon/execution/protocol_descriptor.hpp"

namespace mission::daemon::execution {

std::span<const SignalDescriptor> signal_descriptors() {
  static constexpr SignalDescriptor kSignals[] = {
      {SignalType::progress, "Progress", "progress"},
      {SignalType::needs_input, "Needs input", "input-request"},
      {SignalType::blocked, "Blocked", "input-request"},
      {SignalType::ready_for_verification, "Ready for verification", "claim"},
      {SignalType::completed_claim, "Claims completion", "claim"},
      {SignalType::failed_claim, "Claims failure", "claim"},
      {SignalType::message, "Message", "audit-message"},
  };
  return kSignals;
}

std::span<const Toolset> default_toolsets() {
  static constexpr Toolset kDefault[] = {Toolset::signals, Toolset::tracking};
  return kDefault;
}

nlohmann::json build_protocol_descriptor(const DescriptorSpec& spec) {
  nlohmann::json signals = nlohmann::json::array();
  for (const SignalDescriptor& signal : signal_descriptors()) {
    signals.push_back({{"type", signal.type},
                       {"label", signal.label},
                       {"payloadSchemaKey", "signals/" + std::string(name_of(signal.type))},
                       {"deliveries", {spec.delivery}},
                       {"policy", signal.policy}});
  }
  nlohmann::json descriptor = {{"version", 1},
                               {"owner", {{"type", "agent-execution"}, {"id", spec.execution_id}}},
                               {"scope", {{"cwd", spec.cwd}}},
                               {"signals", std::move(signals)},
                               {"toolsets", spec.toolsets}};
  if (spec.delivery == Delivery::mcp_tool) {
    descriptor["mcp"] = {
        {"serverName", "mission"}, {"exposure", "session-scoped"}, {"publicApi", false}};
  }
  return descriptor;
}

std::vector<Toolset> descriptor_toolsets(const nlohmann::json& descriptor) {
  std::vector<Toolset> toolsets;
  if (!descriptor.is_object() || !descriptor.contains("toolsets")) return toolsets;
  for (const auto& name : descriptor.at("toolsets")) {
    if (!name.is_string()) continue;
    if (auto toolset = parse_name<Toolset>(name.get_ref<const std::string&>())) {
      toolsets.push_back(*toolset);
    }
  }
  return toolsets;
}

bool offers_signal_over_mcp(const nlohmann::json& descriptor, SignalType signal) {
  if (!descriptor.is_object() || !descriptor.contains("signals")) return false;
  const std::string_view wanted = name_of(signal);
  const std::string_view mcp = name_of(Delivery::mcp_tool);
  for (const auto& entry : descriptor.at("signals")) {
    if (!entry.is_object() || entry.value("type", "") != wanted) continue;
    if (!entry.contains("deliveries")) return false;
    for (const auto& delivery : entry.at("deliveries")) {
      if (delivery.is_string() && delivery.get_ref<const std::string&>() == mcp) return true;
    }
  }
  return false;
}

}  // namespace mission::daemon::execution
