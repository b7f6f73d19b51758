#include "daemon/rpc/adapter_methods.hpp"

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/adapters/bridge.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon {
namespace {

nlohmann::json adapter_json(const adapters::AgentAdapter& adapter) {
  const adapters::Capabilities& capabilities = adapter.capabilities;
  nlohmann::json deliveries = nlohmann::json::array();
  for (Delivery delivery : capabilities.deliveries) deliveries.push_back(delivery);
  nlohmann::json json = {
      {"name", adapter.name},
      {"deliveries", std::move(deliveries)},
      {"preferred",
       {{"attached", capabilities.preferred_attached},
        {"detached", capabilities.preferred_detached}}},
      {"provisioning",
       {{"requiresRuntimeConfig", capabilities.provisioning.requires_runtime_config},
        {"supportsStdioBridge", capabilities.provisioning.supports_stdio_bridge},
        {"supportsDynamicTools", capabilities.provisioning.supports_dynamic_tools}}},
      {"manualConfig", adapter.manual_config != nullptr}};
  // The CLI looks the binary up in the user's own environment: the
  // daemon's PATH is whatever the command that started it had.
  if (!adapter.binary.empty()) {
    json["binary"] = adapter.binary;
    json["binVariable"] = adapters::bin_variable(adapter.name);
  }
  return json;
}

}  // namespace

void from_json(const nlohmann::json& j, AdapterConfigRequest& request) {
  request.adapter = j.at("adapter").get<std::string>();
  request.execution_id = j.value("agentExecutionId", "");
}

nlohmann::json handle_adapter_list(MethodContext&, const EmptyRequest&) {
  nlohmann::json list = nlohmann::json::array();
  for (const adapters::AgentAdapter* adapter : adapters::adapter_table()) {
    list.push_back(adapter_json(*adapter));
  }
  return {{"adapters", std::move(list)}};
}

nlohmann::json handle_adapter_config(MethodContext& context, const AdapterConfigRequest& request) {
  const adapters::AgentAdapter& adapter = adapters::require_adapter(request.adapter);
  if (adapter.manual_config == nullptr) {
    throw MissionError(
        ErrorCode::invalid_argument,
        std::string(adapter.name) + " has no MCP client; it reports through stdout markers",
        "launch it with 'mission run --adapter " + std::string(adapter.name) +
            "', which gives it the marker instructions, or print them with "
            "'mission exec instructions ID'",
        {{"adapter", adapter.name}});
  }
  if (!request.execution_id.empty()) {
    store::ExecutionRow row =
        execution::AgentExecutionRegistry(context.services.db).require(request.execution_id);
    if (row.delivery != Delivery::mcp_tool) {
      throw MissionError(ErrorCode::invalid_argument,
                         "agent execution '" + row.id + "' uses " +
                             std::string(name_of(row.delivery)) + " delivery and has no MCP access",
                         "create one with 'mission exec create --delivery mcp-tool', or leave "
                         "out --agent-execution");
    }
    if (is_final(row.state)) {
      throw MissionError(ErrorCode::execution_final,
                         "agent execution '" + row.id + "' is " + std::string(name_of(row.state)),
                         "create a new one with 'mission exec create'", {{"state", row.state}});
    }
  }
  adapters::BridgeEntry bridge = adapters::bridge_entry(
      adapters::mission_binary(), context.services.paths.socket, request.execution_id);
  // Never the token: the agent gets it in its own environment.
  bridge.token_from_env = !request.execution_id.empty();
  adapters::ManualConfig config = adapter.manual_config(bridge);
  nlohmann::json result = {{"adapter", adapter.name},
                           {"format", config.format},
                           {"target", config.target},
                           {"text", config.text}};
  if (!request.execution_id.empty()) result["agentExecutionId"] = request.execution_id;
  return result;
}

}  // namespace mission::daemon
