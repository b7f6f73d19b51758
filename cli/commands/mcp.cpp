// mission mcp connect: the stdio MCP server an agent's MCP client starts. It
// attaches this process's stdin/stdout to one AgentExecution's MCP session in
// the daemon, then only copies bytes (DESIGN.md §4).
// mission mcp config: what to paste into an agent's own config to add that
// server by hand, in the syntax its adapter knows.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/mcp_bridge.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ConnectOptions {
  std::string execution_id;
  std::vector<std::string> toolsets;
};

struct ConfigOptions {
  std::string adapter;
  std::string execution_id;
  bool add_json = false;
};

std::string current_directory() {
  std::error_code error;
  auto cwd = std::filesystem::current_path(error);
  if (error) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cannot read the current directory: " + error.message(),
                       "run mission mcp connect from an existing directory");
  }
  return cwd.string();
}

int run_connect(const CliContext& context, const ConnectOptions& options) {
  nlohmann::json params = {{"cwd", current_directory()}};
  std::optional<DaemonClient> client;
  if (!options.execution_id.empty()) {
    // An execution lives in one daemon: with no daemon it is gone, and a
    // fresh daemon would not know it. So never start one here.
    if (auto running = context.connect_if_running()) client.emplace(std::move(*running));
    if (!client) {
      throw MissionError(ErrorCode::daemon_unavailable,
                         "missiond is not running at " + context.paths().socket.string() +
                             ", so agent execution '" + options.execution_id + "' is gone",
                         "start a new execution; check --socket or MISSION_SOCKET if the "
                         "daemon runs elsewhere");
    }
    params["agentExecutionId"] = options.execution_id;
    const char* token = std::getenv("MISSION_MCP_TOKEN");
    if (token != nullptr) params["token"] = token;
  } else {
    client.emplace(std::move(context.connect().client));
    if (!options.toolsets.empty()) params["toolsets"] = options.toolsets;
  }

  client->call("mcp.attach", params);
  BridgeEnd end = run_bridge(client->fd(), client->take_buffered());
  if (end == BridgeEnd::daemon_closed) {
    std::fprintf(stderr, "mission: missiond closed the MCP session (the daemon stopped)\n");
    return kExitDaemonUnavailable;
  }
  return kExitOk;
}

int print_config(const CliContext& context, const ConfigOptions& options) {
  nlohmann::json params = {{"adapter", options.adapter}};
  if (!options.execution_id.empty()) params["agentExecutionId"] = options.execution_id;
  DaemonConnection connection = context.connect();
  nlohmann::json config = connection.client.call("adapter.config", params);
  if (context.options.json) {
    print_json(config);
    return kExitOk;
  }
  // stdout is exactly the text to paste; where it goes is for a person only.
  if (::isatty(STDERR_FILENO) == 1) {
    std::fprintf(stderr, "# for %s\n", config.value("target", "").c_str());
  }
  std::string text = config.value("text", "");
  if (options.add_json) {
    // `claude mcp add-json NAME JSON` takes the server's entry alone.
    nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.contains("mcpServers")) {
      throw MissionError(ErrorCode::invalid_argument, "--add-json is for the claude-code adapter",
                         "drop --add-json, or use --adapter claude-code");
    }
    std::string entry = parsed.at("mcpServers").at("mission").dump();
    std::string quoted;
    for (char c : entry) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text = "claude mcp add-json mission '" + quoted + "'\n";
  } else if (options.adapter == "claude-code" && ::isatty(STDERR_FILENO) == 1) {
    std::fprintf(stderr, "# or run: mission mcp config --adapter claude-code --add-json | sh\n");
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

}  // namespace

void define_mcp_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<ConnectOptions>();
  CLI::App* connect = command.add_subcommand(
      "connect", "Serve MCP on stdin/stdout for one agent execution (for MCP clients)");
  connect
      ->add_option("--agent-execution", options->execution_id,
                   "Attach to this execution (token from $MISSION_MCP_TOKEN); without it, "
                   "create one for the current directory")
      ->type_name("EXEC");
  connect
      ->add_option("--toolsets", options->toolsets,
                   "Toolsets of the execution created without --agent-execution")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("TOOLSETS");
  connect->fallthrough();
  connect->callback([&context, options] {
    if (!options->execution_id.empty() && !options->toolsets.empty()) {
      throw CLI::ValidationError("--toolsets",
                                 "toolsets are fixed when the execution is created; drop "
                                 "--toolsets or --agent-execution");
    }
    context.action = [&context, options] { return run_connect(context, *options); };
  });

  auto config_options = std::make_shared<ConfigOptions>();
  CLI::App* config = command.add_subcommand(
      "config", "Print the MCP server entry to paste into an agent's own config");
  config
      ->add_option("--adapter", config_options->adapter,
                   "The agent: claude-code, codex, copilot, opencode or generic")
      ->required()
      ->type_name("ADAPTER");
  config
      ->add_option("--agent-execution", config_options->execution_id,
                   "For this execution (the agent supplies $MISSION_MCP_TOKEN); without it, "
                   "each session makes its own")
      ->type_name("EXEC");
  config->add_flag("--add-json", config_options->add_json,
                   "claude-code: print the `claude mcp add-json` command that adds it instead");
  config->fallthrough();
  config->callback([&context, config_options] {
    context.action = [&context, config_options] { return print_config(context, *config_options); };
  });
}

}  // namespace mission::cli
