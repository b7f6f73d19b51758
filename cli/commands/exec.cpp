// mission exec list|show|create: inspect AgentExecutions, and create one to
// be launched elsewhere.

#include <cstdio>
#include <filesystem>

#include "cli/commands/command_table.hpp"
#include "cli/execution_view.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

struct ExecOptions {
  // list
  std::string state;
  std::size_t limit = limits::kDefaultExecutionListLimit;
  // show
  std::string id;
  // create
  std::string adapter = "generic";
  std::string delivery = "mcp-tool";
  std::string cwd;
  std::vector<std::string> toolsets;
  std::vector<std::string> command;
  bool print_token = false;
};

int run_list(const CliContext& context, const ExecOptions& options) {
  nlohmann::json params = {{"limit", options.limit}};
  if (!options.state.empty()) params["state"] = options.state;
  nlohmann::json result = context.connect().client.call("execution.list", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_execution_table(result.value("executions", nlohmann::json::array()));
  }
  return kExitOk;
}

int run_show(const CliContext& context, const ExecOptions& options) {
  nlohmann::json result = context.connect().client.call("execution.get", {{"id", options.id}});
  if (context.options.json) {
    print_json(result.at("execution"));
  } else {
    print_execution(result.at("execution"));
  }
  return kExitOk;
}

int run_create(const CliContext& context, const ExecOptions& options) {
  std::filesystem::path cwd = options.cwd.empty() ? std::filesystem::current_path()
                                                  : std::filesystem::absolute(options.cwd);
  if (!std::filesystem::is_directory(cwd)) {
    throw MissionError(ErrorCode::invalid_argument, "not a directory: " + cwd.string(),
                       "pass an existing directory with --cwd");
  }
  nlohmann::json params = {{"adapter", options.adapter},
                           {"delivery", options.delivery},
                           {"cwd", cwd.lexically_normal().string()},
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

CLI::App* add_action(CLI::App& parent, const char* name, const char* summary,
                     CliContext& context, std::shared_ptr<ExecOptions> options,
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
  list->add_option("--state", options->state, "Only executions in this state")
      ->check(CLI::IsMember({"created", "launching", "running", "awaiting_input", "blocked",
                             "completed", "failed", "cancelled", "lost"}))
      ->type_name("STATE");
  list->add_option("--limit", options->limit, "At most this many (default 50)")
      ->check(CLI::Range(1, 10000))
      ->type_name("N");

  CLI::App* show = add_action(command, "show", "Show one execution and its MCP sessions",
                              context, options, run_show);
  show->add_option("id", options->id, "Execution id")->required()->type_name("ID");

  CLI::App* create = add_action(command, "create",
                                "Create an execution to launch elsewhere; prints its id",
                                context, options, run_create);
  create->add_option("--adapter", options->adapter, "Agent adapter (default generic)")
      ->type_name("NAME");
  create->add_option("--delivery", options->delivery, "Signal delivery (default mcp-tool)")
      ->check(CLI::IsMember({"mcp-tool", "stdout-marker"}))
      ->type_name("D");
  create->add_option("--cwd", options->cwd, "Working directory (default: current)")
      ->type_name("DIR");
  create->add_option("--toolsets", options->toolsets, "MCP toolsets (default: signals)")
      ->delimiter(',')
      ->type_name("LIST");
  create->add_flag("--print-token", options->print_token,
                   "Also print the MCP session token (a secret: pass it as MISSION_MCP_TOKEN)");
  create->add_option("command", options->command, "The agent's command, after --")
      ->type_name("CMD...");
}

}  // namespace mission::cli
