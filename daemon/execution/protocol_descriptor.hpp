#pragma once
// The protocol descriptor stored with every AgentExecution: the single source
// from which marker instructions and MCP tool catalogs are both derived.

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::execution {

struct SignalDescriptor {
  std::string_view type;     // also the MCP tool name and the marker signal type
  std::string_view label;
  std::string_view policy;   // progress, claim, input-request, audit-message
};

// The seven signals, in the order they are presented.
std::span<const SignalDescriptor> signal_descriptors();

// Toolsets an execution gets when none are asked for.
const std::vector<std::string>& default_toolsets();

struct DescriptorSpec {
  std::string execution_id;
  std::string cwd;
  std::string delivery;               // stdout-marker or mcp-tool
  std::vector<std::string> toolsets;  // already checked against the catalog
};

// {version, owner, scope, signals[{type,label,payloadSchemaKey,deliveries,
// policy}], toolsets, mcp?}; `mcp` only when the delivery is mcp-tool.
nlohmann::json build_protocol_descriptor(const DescriptorSpec& spec);

// The toolsets a stored descriptor enables (empty if it has none).
std::vector<std::string> descriptor_toolsets(const nlohmann::json& descriptor);

}  // namespace mission::daemon::execution
