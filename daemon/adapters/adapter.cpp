#include "daemon/adapters/adapter.hpp"

#include <algorithm>
#include <cctype>

#include "daemon/adapters/adapter_table.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::adapters {

bool supports(const AgentAdapter& adapter, Delivery delivery) {
  const auto& deliveries = adapter.capabilities.deliveries;
  return std::find(deliveries.begin(), deliveries.end(), delivery) != deliveries.end();
}

Delivery select_delivery(const AgentAdapter& adapter, std::optional<Delivery> requested,
                         LaunchMode mode) {
  if (!requested) {
    return mode == LaunchMode::attached ? adapter.capabilities.preferred_attached
                                        : adapter.capabilities.preferred_detached;
  }
  if (supports(adapter, *requested)) return *requested;
  nlohmann::json supported = nlohmann::json::array();
  std::string listed;
  for (Delivery delivery : adapter.capabilities.deliveries) {
    supported.push_back(delivery);
    listed += (listed.empty() ? "" : " or ") + std::string(name_of(delivery));
  }
  throw MissionError(
      ErrorCode::invalid_argument,
      std::string(adapter.name) + " does not support " + std::string(name_of(*requested)) +
          " delivery; it supports " + listed,
      "pass --delivery " + listed + ", or leave it out for the adapter's preferred one",
      {{"adapter", adapter.name}, {"requested", *requested}, {"supported", supported}});
}

bool has_option(const std::vector<std::string>& argv, std::string_view name) {
  for (const auto& word : argv) {
    if (word == name) return true;
    if (word.size() > name.size() && word.compare(0, name.size(), name) == 0 &&
        word[name.size()] == '=') {
      return true;
    }
  }
  return false;
}

std::optional<std::string> option_value(const std::vector<std::string>& argv,
                                        std::string_view name) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word == name) {
      if (i + 1 < argv.size()) return argv[i + 1];
      return std::nullopt;
    }
    if (word.size() > name.size() && word.compare(0, name.size(), name) == 0 &&
        word[name.size()] == '=') {
      return word.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

std::string_view output_format_of(std::string_view adapter_name,
                                  const std::vector<std::string>& argv) {
  const AgentAdapter* adapter = find_adapter(adapter_name);
  if (adapter == nullptr || adapter->output_format == nullptr) return {};
  return adapter->output_format(argv);
}

std::string bin_variable(std::string_view adapter_name) {
  std::string name = "MISSION_";
  for (char c : adapter_name) {
    name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return name + "_BIN";
}

std::map<std::string, std::string> bridge_env(const BridgeEntry& bridge,
                                              std::string_view token_placeholder) {
  std::map<std::string, std::string> env{{"MISSION_SOCKET", bridge.socket}};
  if (bridge.token_from_env) {
    env["MISSION_MCP_TOKEN"] = std::string(token_placeholder);
  } else if (!bridge.token.empty()) {
    env["MISSION_MCP_TOKEN"] = bridge.token;
  }
  return env;
}

const BridgeEntry& require_bridge(const LaunchRequest& request) {
  if (!request.bridge) {
    throw MissionError(ErrorCode::internal,
                       "no MCP access was registered for " + request.execution_id,
                       "this is a bug in missiond; launch with --delivery stdout-marker meanwhile");
  }
  return *request.bridge;
}

}  // namespace mission::daemon::adapters
