// mission exec list|show|create|stop|logs|signals|instructions: inspect and
// control AgentExecutions, and create one to be launched elsewhere.

#include <cstdio>
#include <optional>

#include "cli/commands/command_table.hpp"
#include "cli/event_view.hpp"
#include "cli/execution_reference.hpp"
#include "cli/execution_view.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/log_follower.hpp"
#include "cli/output.hpp"
#include "shared/acp_adapters.hpp"
#include "shared/limits.hpp"
#include "shared/vocabulary.hpp"

namespace mission::cli {
namespace {

struct ExecOptions {
  // list
  std::string state;
  std::size_t limit = limits::kDefaultExecutionListLimit;
  std::optional<std::int64_t> list_cursor;
  // show
  std::string id;
  // create
  std::string adapter = "generic";
  std::string delivery = "mcp-tool";
  std::string cwd;
  std::vector<std::string> toolsets;
  std::vector<std::string> command;
  bool print_token = false;
  // stop
  bool force = false;
  // logs
  bool follow = false;
  bool raw = false;
  std::optional<std::uint64_t> after;
  std::optional<std::uint64_t> cursor;
  std::size_t log_limit = 100;
};

int run_list(const CliContext& context, const ExecOptions& options) {
  nlohmann::json params = {{"limit", options.limit}};
  if (!options.state.empty()) params["state"] = options.state;
  if (options.list_cursor) params["cursor"] = *options.list_cursor;
  nlohmann::json result = context.connect().client.call("execution.list", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_execution_table(result.value("executions", nlohmann::json::array()));
    if (result.contains("nextCursor")) {
      std::fprintf(stderr, "(older executions: mission exec list --cursor %s)\n",
                   result.at("nextCursor").dump().c_str());
    }
  }
  return kExitOk;
}

int run_show(const CliContext& context, const ExecOptions& options) {
  DaemonConnection connection = context.connect();
  const std::string id = resolve_execution(connection.client, options.id);
  // Subscribe before reading, so nothing happens unseen in between.
  if (options.follow) connection.client.call("events.subscribe", {{"agentExecutionId", id}});
  nlohmann::json execution = connection.client.call("execution.get", {{"id", id}}).at("execution");
  if (context.options.json && options.follow) {
    std::printf("%s\n", json_text(execution).c_str());  // JSON lines, like the events after it
  } else if (context.options.json) {
    print_json(execution);
  } else {
    print_execution(execution);
  }
  if (!options.follow ||
      event_is_final({{"type", "execution.updated"}, {"execution", execution}})) {
    return kExitOk;
  }
  for (;;) {
    nlohmann::json event = connection.client.read_event();
    const std::string line = context.options.json ? json_text(event) : event_line(event);
    if (!line.empty()) std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (event_is_final(event)) return kExitOk;
  }
}

int run_create(const CliContext& context, const ExecOptions& options) {
  nlohmann::json params = {{"adapter", options.adapter},
                           {"delivery", options.delivery},
                           {"cwd", CliContext::working_directory(options.cwd)},
                           {"command", options.command}};
  if (!options.toolsets.empty()) params["toolsets"] = options.toolsets;
  nlohmann::json result = context.connect().client.call("execution.create", params);
  nlohmann::json execution = result.at("execution");
  // The token is a credential: shown only when asked for.
  const bool show_token = options.print_token && result.contains("token");
  if (context.options.json) {
    nlohmann::json document = {{"execution", execution}};
    if (show_token) document["token"] = result.at("token");
    print_json(document);
  } else {
    std::printf("%s\n", execution.value("id", "").c_str());
    if (show_token) std::printf("%s\n", result.at("token").get<std::string>().c_str());
  }
  return kExitOk;
}

int run_stop(const CliContext& context, const ExecOptions& options) {
  DaemonConnection connection = context.connect();
  const std::string id = resolve_execution(connection.client, options.id);
  nlohmann::json result =
      connection.client.call("execution.stop", {{"id", id}, {"force", options.force}});
  if (context.options.json) {
    print_json(result);
  } else if (result.value("stopping", false)) {
    // An agent driven over ACP is asked to end its turn before any signal.
    const bool over_acp =
        driven_over_acp(result.value("execution", nlohmann::json::object()).value("adapter", ""));
    std::printf("stopping %s (%s)\n", id.c_str(),
                options.force ? "SIGKILL"
                : over_acp    ? "session/cancel in a turn, then SIGTERM"
                              : "SIGTERM");
  } else {
    std::printf("%s is %s\n", id.c_str(), result.at("execution").value("state", "").c_str());
  }
  return kExitOk;
}

int run_logs(const CliContext& context, const ExecOptions& options) {
  DaemonConnection connection = context.connect();
  const std::string id = resolve_execution(connection.client, options.id);
  nlohmann::json params = {{"id", id}, {"limit", options.log_limit}};
  if (options.after) params["after"] = *options.after;
  if (options.cursor) params["cursor"] = *options.cursor;
  nlohmann::json page = connection.client.call("execution.logs", params);
  if (context.options.json && !options.follow) {
    print_json(page);
    return kExitOk;
  }
  std::uint64_t last =
      print_log_lines(page, context.options.json, options.after.value_or(0), options.raw);
  // A snapshot ends with what the agent has printed since its last line
  // (a prompt); a follower prints each line once it is complete.
  if (!options.follow) print_partial_lines(page, options.raw);
  if (!options.follow && page.contains("nextCursor") && !context.options.json) {
    std::fprintf(stderr, "(older lines: --cursor %llu)\n",
                 static_cast<unsigned long long>(page.at("nextCursor").get<std::uint64_t>()));
  }
  if (options.follow) {
    follow_log(connection.client, id, last, context.options.json, {}, options.raw);
  }
  return kExitOk;
}

int run_signals(const CliContext& context, const ExecOptions& options) {
  DaemonConnection connection = context.connect();
  const std::string id = resolve_execution(connection.client, options.id);
  nlohmann::json observations =
      fetch_all(connection.client, "execution.observations", {{"id", id}}, "observations");
  if (context.options.json) {
    print_json({{"observations", observations}});
  } else {
    print_observation_table(observations);
  }
  return kExitOk;
}

int run_instructions(const CliContext& context, const ExecOptions& options) {
  DaemonConnection connection = context.connect();
  nlohmann::json result = connection.client.call(
      "execution.instructions", {{"id", resolve_execution(connection.client, options.id)}});
  if (context.options.json) {
    print_json(result);
  } else {
    std::fputs(result.value("text", "").c_str(), stdout);
  }
  return kExitOk;
}

CLI::App* add_action(CLI::App& parent, const char* name, const char* summary, CliContext& context,
                     std::shared_ptr<ExecOptions> options,
                     int (*run)(const CliContext&, const ExecOptions&)) {
  CLI::App* command = parent.add_subcommand(name, summary);
  command->fallthrough();
  command->callback([&context, options, run] {
    context.action = [&context, options, run] { return run(context, *options); };
  });
  return command;
}

}  // namespace

void define_exec_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<ExecOptions>();

  CLI::App* list = add_action(command, "list", "List agent executions, newest first", context,
                              options, run_list);
  std::vector<std::string> states;
  for (const auto& entry : vocabulary<ExecutionState>()) states.emplace_back(entry.name);
  list->add_option("--state", options->state, "Only executions in this state")
      ->check(CLI::IsMember(states))
      ->type_name("STATE");
  list->add_option("--limit", options->limit, "At most this many (default 50, at most 500)")
      ->check(CLI::Range(1, 10000))
      ->type_name("N");
  list->add_option("--cursor", options->list_cursor, "Older ones: the cursor a list printed")
      ->type_name("CURSOR");

  CLI::App* show = add_action(command, "show", "Show one execution and its MCP sessions", context,
                              options, run_show);
  show->add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");
  show->add_flag("--follow,-f", options->follow, "Then print its events until it ends");

  CLI::App* create =
      add_action(command, "create", "Create an execution to launch elsewhere; prints its id",
                 context, options, run_create);
  create->add_option("--adapter", options->adapter, "Agent adapter (default generic)")
      ->type_name("ADAPTER");
  create->add_option("--delivery", options->delivery, "Signal delivery (default mcp-tool)")
      ->check(CLI::IsMember({"mcp-tool", "stdout-marker"}))
      ->type_name("D");
  create->add_option("--cwd", options->cwd, "Working directory (default: current)")
      ->type_name("DIR");
  create->add_option("--toolsets", options->toolsets, "MCP toolsets (default: signals,tracking)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("TOOLSETS");
  create->add_flag("--print-token", options->print_token,
                   "Also print the MCP session token (a secret: pass it as MISSION_MCP_TOKEN)");
  create->add_option("command", options->command, "The agent's command, after --")
      ->type_name("CMD...");

  CLI::App* stop = add_action(command, "stop",
                              "Stop an execution: SIGTERM to its process group, SIGKILL after 5 s",
                              context, options, run_stop);
  stop->add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");
  stop->add_flag("--force", options->force, "SIGKILL at once");

  CLI::App* logs = add_action(command, "logs", "Print an execution's output (newest lines)",
                              context, options, run_logs);
  logs->add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");
  logs->add_flag("--follow,-f", options->follow, "Keep printing new output until it ends");
  logs->add_flag("--raw", options->raw,
                 "The output's bytes as the agent wrote them, escape sequences included");
  logs->add_option("--after", options->after, "Only lines after line number N")->type_name("N");
  logs->add_option("--cursor", options->cursor, "Page back: the lines before line C")
      ->type_name("C");
  logs->add_option("--limit", options->log_limit, "At most N lines (default 100)")
      ->check(CLI::Range(1, 10000))
      ->type_name("N");

  CLI::App* signals =
      add_action(command, "signals", "List an execution's observations and their acknowledgements",
                 context, options, run_signals);
  signals->add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");

  CLI::App* instructions =
      add_action(command, "instructions", "Print what to tell a stdout-marker agent", context,
                 options, run_instructions);
  instructions->add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");
}

}  // namespace mission::cli
