#pragma once
// Control-API method sandbox.check: what this kernel lets the daemon
// confine an agent with, the profile an adapter's launch in a folder gets,
// and a confined probe child's proof of it (mission sandbox check).

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct SandboxCheckRequest {
  std::string adapter = "generic";
  std::string cwd;                         // the launch's working directory
  std::map<std::string, std::string> env;  // the agent's environment (its HOME, XDG_*)
};
void from_json(const nlohmann::json& j, SandboxCheckRequest& request);

nlohmann::json handle_sandbox_check(MethodContext& context, const SandboxCheckRequest& request);

}  // namespace mission::daemon
