// Claude Code (`claude`). MCP: a JSON file with an `mcpServers` entry for
// the bridge, given with --mcp-config (and --strict-mcp-config, so only
// mission's server loads, unless the launch keeps the agent's own).
// Markers: the instructions appended to its system prompt.

#include <nlohmann/json.hpp>

#include "daemon/adapters/acp_launch.hpp"
#include "daemon/adapters/adapter.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool, Delivery::stdout_marker};

nlohmann::ordered_json server_entry(const BridgeEntry& bridge) {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  // Claude expands ${VAR} in the env of a config it reads.
  for (const auto& [name, value] : bridge_env(bridge, "${MISSION_MCP_TOKEN}")) env[name] = value;
  return {{"type", "stdio"}, {"command", bridge.command}, {"args", bridge.args}, {"env", env}};
}

std::string config_text(const BridgeEntry& bridge) {
  nlohmann::ordered_json config = {{"mcpServers", {{kServerName, server_entry(bridge)}}}};
  return config.dump(2) + "\n";
}

LaunchPlan prepare(const LaunchRequest& request) {
  LaunchPlan plan{{request.binary}, {}, {}, LaunchFiles(request.files_dir)};
  // --mcp-config and --allowedTools take several values: the `=` form ends
  // each at one, so a prompt among the user's words is never taken for one.
  if (request.delivery == Delivery::mcp_tool) {
    auto file = plan.files.write("claude-mcp.json", config_text(require_bridge(request)));
    plan.argv.push_back("--mcp-config=" + file.string());
    if (!request.keep_mcp_servers) plan.argv.push_back("--strict-mcp-config");
    // stdin is /dev/null: a signal tool waiting for a permission prompt
    // would wait for nobody.
    plan.argv.push_back("--allowedTools=mcp__" + std::string(kServerName));
    // Connect before the first model turn, so turn one can already report.
    if (request.env.count("MCP_CONNECTION_NONBLOCKING") == 0) {
      plan.env_set["MCP_CONNECTION_NONBLOCKING"] = "false";
    }
    // The token is in the 0600 file; the agent's tools need not see it.
    plan.env_unset.push_back("MISSION_MCP_TOKEN");
  } else {
    plan.argv.push_back("--append-system-prompt");
    plan.argv.push_back(request.marker_instructions());
  }
  // Headless (-p) off a terminal: streaming JSON, so the run shows its
  // steps as they happen instead of nothing until the end. Not with
  // stdout-marker delivery, whose markers must start lines of plain text,
  // nor when the user chose an output format.
  const auto& words = request.arguments;
  const bool headless = has_option(words, "-p") || has_option(words, "--print");
  if (headless && !request.on_terminal && request.delivery == Delivery::mcp_tool &&
      !has_option(words, "--output-format")) {
    plan.argv.push_back("--output-format=stream-json");
    if (!has_option(words, "--verbose")) plan.argv.push_back("--verbose");
  }
  plan.argv.insert(plan.argv.end(), request.arguments.begin(), request.arguments.end());
  return plan;
}

// `claude -p --output-format stream-json` (which wants --verbose with -p):
// one JSON object a line, each message, tool call and result as it comes.
constexpr std::string_view kStreamFormat = "claude-stream-json";

std::string_view output_format(const std::vector<std::string>& argv) {
  return option_value(argv, "--output-format") == "stream-json" ? kStreamFormat
                                                                : std::string_view();
}

// Over ACP: Claude Code's ACP adapter (@zed-industries/claude-agent-acp),
// which runs Claude Code through its SDK and reads the same state.
LaunchPlan prepare_over_acp(const LaunchRequest& request) {
  LaunchPlan plan = acp_launch_plan(request, {request.binary});
  // Through the SDK, Claude Code rewrites ~/.claude.json by way of a
  // temporary file beside it, which a confined agent may not create in
  // HOME: named by CLAUDE_CONFIG_DIR, that file moves into ~/.claude, one
  // of its state folders.
  auto home = request.env.find("HOME");
  if (request.confined && request.env.count("CLAUDE_CONFIG_DIR") == 0 &&
      home != request.env.end()) {
    plan.env_set["CLAUDE_CONFIG_DIR"] = (std::filesystem::path(home->second) / ".claude").string();
  }
  return plan;
}

ManualConfig manual(const BridgeEntry& bridge) {
  return {"json", ".mcp.json in the project, or the mcpServers of ~/.claude.json",
          config_text(bridge)};
}

// Claude expands ${VAR} in headers too.
ManualConfig remote(const std::string& url) {
  nlohmann::ordered_json server = {{"type", "http"},
                                   {"url", url},
                                   {"headers", {{"Authorization", "Bearer ${MISSION_MCP_TOKEN}"}}}};
  nlohmann::ordered_json config = {{"mcpServers", {{kServerName, server}}}};
  return {"json", ".mcp.json in the project, or the mcpServers of ~/.claude.json",
          config.dump(2) + "\n"};
}

}  // namespace

// What its CLI writes under HOME.
constexpr StatePath kStatePaths[] = {{"CLAUDE_CONFIG_DIR", ".claude", "", true},
                                     {"", "", ".claude.json", false},
                                     {"XDG_CACHE_HOME", ".cache", "claude-cli-nodejs", true}};

extern const AgentAdapter kClaudeCodeAdapter;
const AgentAdapter kClaudeCodeAdapter = {
    "claude-code",
    "claude",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    manual,
    remote,
    output_format,
    kStatePaths,
};

extern const AgentAdapter kClaudeCodeAcpAdapter;
const AgentAdapter kClaudeCodeAcpAdapter =
    over_acp("claude-code-acp", "claude-agent-acp", prepare_over_acp, kStatePaths);

}  // namespace mission::daemon::adapters
