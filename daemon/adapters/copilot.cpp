// GitHub Copilot CLI (`copilot`). MCP: a JSON file with an `mcpServers`
// entry for the bridge, added to the user's own servers with
// --additional-mcp-config @FILE. Copilot passes its MCP servers almost no
// environment, so the entry carries MISSION_SOCKET and the token itself.
// It has no way to take extra instructions on its command line, so it
// supports mcp-tool only.

#include <nlohmann/json.hpp>

#include "daemon/adapters/adapter.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool};

std::string config_text(const BridgeEntry& bridge) {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const auto& [name, value] : bridge_env(bridge, "${MISSION_MCP_TOKEN}")) env[name] = value;
  nlohmann::ordered_json server = {{"type", "local"},
                                   {"command", bridge.command},
                                   {"args", bridge.args},
                                   {"env", env},
                                   {"tools", {"*"}}};
  nlohmann::ordered_json config = {{"mcpServers", {{kServerName, server}}}};
  return config.dump(2) + "\n";
}

LaunchPlan prepare(const LaunchRequest& request) {
  LaunchPlan plan{{request.binary}, {}, {}, LaunchFiles(request.files_dir)};
  auto file = plan.files.write("copilot-mcp.json", config_text(require_bridge(request)));
  plan.argv.push_back("--additional-mcp-config");
  plan.argv.push_back("@" + file.string());
  // stdin is /dev/null: no one could approve a signal tool's call. The `=`
  // form, because --allow-tool takes several values.
  plan.argv.push_back("--allow-tool=" + std::string(kServerName));
  plan.env_unset.push_back("MISSION_MCP_TOKEN");
  plan.argv.insert(plan.argv.end(), request.arguments.begin(), request.arguments.end());
  return plan;
}

ManualConfig manual(const BridgeEntry& bridge) {
  return {"json", "~/.copilot/mcp-config.json (or $COPILOT_HOME/mcp-config.json)",
          config_text(bridge)};
}

ManualConfig remote(const std::string& url) {
  nlohmann::ordered_json server = {{"type", "http"},
                                   {"url", url},
                                   {"headers", {{"Authorization", "Bearer ${MISSION_MCP_TOKEN}"}}},
                                   {"tools", {"*"}}};
  nlohmann::ordered_json config = {{"mcpServers", {{kServerName, server}}}};
  return {"json", "~/.copilot/mcp-config.json (or $COPILOT_HOME/mcp-config.json)",
          config.dump(2) + "\n"};
}

}  // namespace

// What its CLI writes under HOME.
constexpr StatePath kStatePaths[] = {{"COPILOT_HOME", ".copilot", "", true},
                                     {"XDG_CACHE_HOME", ".cache", "copilot", true}};

extern const AgentAdapter kCopilotAdapter;
const AgentAdapter kCopilotAdapter = {
    "copilot",
    "copilot",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    manual,
    remote,
    nullptr,
    kStatePaths,
};

}  // namespace mission::daemon::adapters
