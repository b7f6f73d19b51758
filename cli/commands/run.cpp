// mission run: launch an agent (any command) as an AgentExecution owned by
// the daemon, then stream its output and exit with its exit status, or with
// --detach print its id and return.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <map>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/log_follower.hpp"
#include "cli/output.hpp"

extern char** environ;

namespace mission::cli {
namespace {

struct RunOptions {
  std::string adapter = "generic";
  std::string delivery = "stdout-marker";
  std::vector<std::string> toolsets;
  std::string cwd;
  std::vector<std::string> env;
  bool detach = false;
  std::vector<std::string> command;
};

volatile sig_atomic_t g_interrupts = 0;

void on_interrupt(int) { g_interrupts = g_interrupts + 1; }

// The agent gets this process's environment, with --env applied.
std::map<std::string, std::string> agent_environment(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string text = *entry;
    auto equals = text.find('=');
    if (equals != std::string::npos) env[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& assignment : overrides) {
    auto equals = assignment.find('=');
    env[assignment.substr(0, equals)] = assignment.substr(equals + 1);
  }
  return env;
}

// The exit status `mission run` passes on: 130 when it was stopped (as a
// shell reports an interrupted command), else the agent's own, 128 + signal
// when a signal killed it, 1 when it has none (lost).
int exit_status_of(const nlohmann::json& execution) {
  if (execution.value("state", "") == "cancelled") return 130;
  if (execution.contains("exitCode")) return execution.at("exitCode").get<int>();
  if (execution.contains("exitSignal")) return 128 + execution.at("exitSignal").get<int>();
  return kExitFailure;
}

int run_agent(const CliContext& context, const RunOptions& options) {
  nlohmann::json params = {{"adapter", options.adapter},
                           {"delivery", options.delivery},
                           {"cwd", CliContext::working_directory(options.cwd)},
                           {"command", options.command},
                           {"env", agent_environment(options.env)}};
  if (!options.toolsets.empty()) params["toolsets"] = options.toolsets;

  DaemonConnection connection = context.connect();
  nlohmann::json execution = connection.client.call("execution.launch", params).at("execution");
  const std::string id = execution.value("id", "");
  if (options.detach) {
    if (context.options.json) {
      print_json(execution);
    } else {
      std::printf("%s\n", id.c_str());
    }
    return kExitOk;
  }

  // Ctrl-C stops the execution (SIGTERM, then SIGKILL after the grace
  // period); a second Ctrl-C kills it at once. We exit once it has ended.
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // Whoever started us may have blocked them; Ctrl-C must still arrive.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &stops, nullptr);
  int handled = 0;
  auto forward_interrupts = [&] {
    if (g_interrupts == handled) return;
    handled = g_interrupts;
    const bool force = handled > 1;
    std::fprintf(stderr, "mission: %s %s%s\n", force ? "killing" : "stopping", id.c_str(),
                 force ? "" : " (Ctrl-C again to kill it now)");
    connection.client.call("execution.stop", {{"id", id}, {"force", force}});
  };
  follow_log(connection.client, id, 0, false, forward_interrupts);
  execution = connection.client.call("execution.get", {{"id", id}}).at("execution");
  return exit_status_of(execution);
}

}  // namespace

void define_run_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<RunOptions>();
  command.add_option("--adapter", options->adapter, "Agent adapter (default generic)")
      ->type_name("NAME");
  command.add_option("--delivery", options->delivery, "Signal delivery (default stdout-marker)")
      ->check(CLI::IsMember({"stdout-marker", "mcp-tool"}))
      ->type_name("D");
  command.add_option("--toolsets", options->toolsets, "MCP toolsets for mcp-tool delivery")
      ->delimiter(',')
      ->type_name("LIST");
  command.add_option("--cwd", options->cwd, "Working directory (default: current)")
      ->type_name("DIR");
  command
      .add_option("--env", options->env, "Set K=V in the agent's environment (repeatable)")
      ->type_name("K=V")
      ->check([](const std::string& value) {
        return value.find('=') == std::string::npos || value.front() == '='
                   ? std::string("expected NAME=VALUE")
                   : std::string();
      });
  command.add_flag("--detach", options->detach, "Print the execution id and return at once");
  command.add_option("command", options->command, "The agent's command and arguments, after --")
      ->required()
      ->type_name("CMD...");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_agent(context, *options); };
  });
}

}  // namespace mission::cli
