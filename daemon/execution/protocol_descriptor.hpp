#pragma once
// The protocol descriptor stored with every AgentExecution: the single source
// from which marker instructions and MCP tool catalogs are both derived.

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shared/vocabulary.hpp"

namespace mission::daemon::execution {

struct SignalDescriptor {
  SignalType type;  // its name is also the MCP tool's and the marker's type
  std::string_view label;
  std::string_view policy;  // progress, claim, input-request, audit-message
};

// The seven signals, in the order they are presented.
std::span<const SignalDescriptor> signal_descriptors();

// Toolsets an execution gets when none are asked for.
std::span<const Toolset> default_toolsets();

struct DescriptorSpec {
  std::string execution_id;
  std::string cwd;
  Delivery delivery = Delivery::stdout_marker;
  std::vector<Toolset> toolsets;
};

// {version, owner, scope, signals[{type,label,payloadSchemaKey,deliveries,
// policy}], toolsets, mcp?}; `mcp` only when the delivery is mcp-tool.
nlohmann::json build_protocol_descriptor(const DescriptorSpec& spec);

// The toolsets a stored descriptor enables (empty if it has none); names
// this missiond does not know are skipped.
std::vector<Toolset> descriptor_toolsets(const nlohmann::json& descriptor);

// Whether the descriptor offers `signal` over mcp-tool delivery.
bool offers_signal_over_mcp(const nlohmann::json& descriptor, SignalType signal);

}  // namespace mission::daemon::execution
