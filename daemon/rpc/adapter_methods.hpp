#pragma once
// Control-API methods about agent adapters: adapter.list (what each one
// supports) and adapter.config (what a user pastes into an agent's own
// config to add mission by hand).

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/rpc/daemon_methods.hpp"
#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct AdapterConfigRequest {
  std::string adapter;
  std::string execution_id;  // empty: a bridge that makes an attached execution per session
  std::string http_url;  // the daemon's HTTP listener as the agent reaches it; empty: the bridge
};
void from_json(const nlohmann::json& j, AdapterConfigRequest& request);

nlohmann::json handle_adapter_list(MethodContext& context, const EmptyRequest& request);
nlohmann::json handle_adapter_config(MethodContext& context, const AdapterConfigRequest& request);

}  // namespace mission::daemon
