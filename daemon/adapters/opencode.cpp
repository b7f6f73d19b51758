// OpenCode (`opencode`). MCP: a config file holding a `local` server for the
// bridge, named by OPENCODE_CONFIG; OpenCode merges it over the user's
// global config. A launch whose environment already sets OPENCODE_CONFIG
// fails rather than silently replacing the user's file. mcp-tool only.

#include <algorithm>
#include <nlohmann/json.hpp>

#include "daemon/adapters/adapter.hpp"
#include "shared/error_code.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool};

std::string config_text(const BridgeEntry& bridge) {
  nlohmann::ordered_json environment = nlohmann::ordered_json::object();
  // OpenCode substitutes {env:NAME} in its config.
  for (const auto& [name, value] : bridge_env(bridge, "{env:MISSION_MCP_TOKEN}")) {
    environment[name] = value;
  }
  std::vector<std::string> command{bridge.command};
  command.insert(command.end(), bridge.args.begin(), bridge.args.end());
  nlohmann::ordered_json server = {
      {"type", "local"}, {"command", command}, {"environment", environment}, {"enabled", true}};
  nlohmann::ordered_json config = {{"$schema", "https://opencode.ai/config.json"},
                                   {"mcp", {{kServerName, server}}}};
  return config.dump(2) + "\n";
}

LaunchPlan prepare(const LaunchRequest& request) {
  if (auto set = request.env.find("OPENCODE_CONFIG"); set != request.env.end()) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "cannot provision MCP for opencode: OPENCODE_CONFIG is already set (" + set->second +
            "), and mission needs it for its server",
        "move those settings to ~/.config/opencode/opencode.json, which OpenCode merges, and "
        "unset OPENCODE_CONFIG; or launch with the generic adapter",
        {{"variable", "OPENCODE_CONFIG"}});
  }
  LaunchPlan plan{{request.binary}, {}, {}, LaunchFiles(request.files_dir)};
  auto file = plan.files.write("opencode.json", config_text(require_bridge(request)));
  plan.env_set["OPENCODE_CONFIG"] = file.string();
  plan.env_unset.push_back("MISSION_MCP_TOKEN");
  plan.argv.insert(plan.argv.end(), request.arguments.begin(), request.arguments.end());
  // `opencode run` off a terminal: its JSON events, right after the
  // subcommand, so the run shows its steps as they happen.
  auto run = std::find(plan.argv.begin() + 1, plan.argv.end(), "run");
  if (run != plan.argv.end() && !request.on_terminal &&
      !has_option(request.arguments, "--format")) {
    plan.argv.insert(run + 1, {"--format", "json"});
  }
  return plan;
}

// `opencode run --format json`: step, text and tool_use events, one JSON
// object a line.
constexpr std::string_view kStreamFormat = "opencode-json";

std::string_view output_format(const std::vector<std::string>& argv) {
  const bool run = std::find(argv.begin(), argv.end(), "run") != argv.end();
  return run && option_value(argv, "--format") == "json" ? kStreamFormat : std::string_view();
}

ManualConfig manual(const BridgeEntry& bridge) {
  return {"json", "opencode.json in the project, or ~/.config/opencode/opencode.json",
          config_text(bridge)};
}

ManualConfig remote(const std::string& url) {
  nlohmann::ordered_json server = {
      {"type", "remote"},
      {"url", url},
      {"headers", {{"Authorization", "Bearer {env:MISSION_MCP_TOKEN}"}}},
      {"enabled", true}};
  nlohmann::ordered_json config = {{"$schema", "https://opencode.ai/config.json"},
                                   {"mcp", {{kServerName, server}}}};
  return {"json", "opencode.json in the project, or ~/.config/opencode/opencode.json",
          config.dump(2) + "\n"};
}

}  // namespace

// What its CLI writes under HOME.
constexpr StatePath kStatePaths[] = {{"XDG_DATA_HOME", ".local/share", "opencode", true},
                                     {"XDG_CONFIG_HOME", ".config", "opencode", true},
                                     {"XDG_CACHE_HOME", ".cache", "opencode", true},
                                     {"XDG_STATE_HOME", ".local/state", "opencode", true}};

extern const AgentAdapter kOpenCodeAdapter;
const AgentAdapter kOpenCodeAdapter = {
    "opencode",
    "opencode",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    manual,
    remote,
    output_format,
    kStatePaths,
};

}  // namespace mission::daemon::adapters
