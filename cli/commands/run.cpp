// mission run: launch an agent as an AgentExecution owned by the daemon,
// through its adapter (any command with the generic one), then stream its
// output and exit with its exit status, or with --detach print its id and
// return.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "cli/agent_follow.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/log_follower.hpp"
#include "cli/output.hpp"
#include "cli/policy_file.hpp"
#include "cli/terminal_attach.hpp"
#include "shared/acp_adapters.hpp"

namespace mission::cli {
namespace {

struct RunOptions {
  std::string adapter = "generic";
  std::string bin;
  std::string delivery;  // empty: the adapter's preferred one
  std::vector<std::string> toolsets;
  std::string cwd;
  std::string name;  // empty: none
  std::vector<std::string> env;
  bool detach = false;
  bool keep_mcp_servers = false;
  bool tty = false;
  bool no_tty = false;
  bool stdin_answers = false;
  std::string sandbox;  // empty: the daemon's default (on)
  std::string network;  // empty: the daemon's default (on)
  std::vector<std::string> allow_write;
  std::vector<std::string> hide;
  // --allow, --deny, --policy (cli/policy_file.hpp).
  std::vector<std::string> allow;
  std::vector<std::string> deny;
  std::string policy;
  std::string prompt;  // for --adapter acp
  bool has_prompt = false;
  bool keep_open = false;  // for --adapter acp
  std::vector<std::string> command;
};

int run_agent(const CliContext& context, const RunOptions& options) {
  if (options.command.empty() && options.adapter == "generic") {
    std::fprintf(stderr,
                 "mission run: no command to run\n"
                 "  usage: mission run [OPTIONS] -- CMD ARGS...  (or --adapter NAME)\n");
    return kExitUsage;
  }
  // From a terminal the agent gets one too, owned by the daemon, and this
  // process attaches to it; elsewhere its output is streamed as lines.
  // An ACP agent's stdio carries the protocol: it never gets a terminal.
  const bool tty =
      options.tty || (!options.no_tty && !options.stdin_answers &&
                      !driven_over_acp(options.adapter) && !context.options.json && on_terminal());
  nlohmann::json params = {{"adapter", options.adapter},
                           {"cwd", CliContext::working_directory(options.cwd)},
                           {"command", options.command},
                           {"env", CliContext::agent_environment(options.env)},
                           {"detach", options.detach}};
  if (!options.delivery.empty()) params["delivery"] = options.delivery;
  if (!options.toolsets.empty()) params["toolsets"] = options.toolsets;
  if (options.keep_mcp_servers) params["keepMcpServers"] = true;
  if (!options.name.empty()) params["name"] = options.name;
  if (tty) {
    params["terminal"] = nlohmann::json::object();
    unsigned short rows = 0;
    unsigned short columns = 0;
    bool cut = false;  // said once attached
    if (agent_terminal_size(rows, columns, cut))
      params["terminal"] = {{"rows", rows}, {"columns", columns}};
  }
  if (options.stdin_answers) params["stdinAnswers"] = true;
  if (options.has_prompt) params["prompt"] = options.prompt;
  if (options.keep_open) params["keepOpen"] = true;
  if (!options.sandbox.empty()) params["sandbox"] = options.sandbox;
  if (!options.network.empty()) params["network"] = options.network;
  if (!options.allow_write.empty())
    params["allowWrite"] = CliContext::absolute_paths(options.allow_write);
  if (!options.hide.empty()) params["hide"] = CliContext::absolute_paths(options.hide);
  if (!options.bin.empty()) params["bin"] = CliContext::agent_binary(options.bin);
  if (auto policy = policy_param(options.allow, options.deny, options.policy))
    params["permissionPolicy"] = *policy;

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
  if (tty) {
    if (::isatty(STDIN_FILENO) == 1) {
      std::fprintf(stderr, "[mission: %s on a terminal; %s detaches, it runs on]\r\n", id.c_str(),
                   kDetachKeyName);
    }
    std::optional<DaemonClient> events = context.connect_if_running();
    return attach_terminal(connection.client, id, false, events ? &*events : nullptr);
  }

  return agent_exit_status(follow_agent_to_end(connection.client, id));
}

}  // namespace

void define_run_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<RunOptions>();
  command
      .add_option("--adapter", options->adapter,
                  "Agent adapter: claude-code, codex, copilot, opencode, pi, acp, generic "
                  "(default)")
      ->type_name("ADAPTER");
  command
      .add_option("--bin", options->bin,
                  "The adapter's executable (default $MISSION_<ADAPTER>_BIN, else PATH)")
      ->type_name("PATH");
  command
      .add_option("--delivery", options->delivery,
                  "Signal delivery (default: the adapter's preferred one)")
      ->check(CLI::IsMember({"mcp-tool", "stdout-marker"}))
      ->type_name("D");
  // Options that may repeat take one value each time: everything after --
  // belongs to the agent, never to them.
  command.add_option("--toolsets", options->toolsets, "MCP toolsets for mcp-tool delivery")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("TOOLSETS");
  command
      .add_option("--name", options->name,
                  "A name to call the execution by instead of its id (exec show NAME, attach NAME)")
      ->type_name("NAME");
  command.add_option("--cwd", options->cwd, "Working directory (default: current)")
      ->type_name("DIR");
  command.add_option("--env", options->env, "Set K=V in the agent's environment (repeatable)")
      ->allow_extra_args(false)
      ->type_name("K=V")
      ->check([](const std::string& value) {
        return value.find('=') == std::string::npos || value.front() == '='
                   ? std::string("expected NAME=VALUE")
                   : std::string();
      });
  command.add_flag("--detach", options->detach, "Print the execution id and return at once");
  command.add_flag(
      "--tty", options->tty,
      "Run the agent on a terminal of the daemon's even when not on one (mission attach)");
  command.add_flag("--no-tty", options->no_tty, "Stream the output as lines even on a terminal");
  command.add_flag("--keep-mcp-servers", options->keep_mcp_servers,
                   "Keep the agent's own MCP servers beside mission's");
  command.add_flag(
      "--stdin-answers", options->stdin_answers,
      "Write answers and messages to the command's stdin, one line each (generic adapter)");
  command
      .add_option(
          "--sandbox", options->sandbox,
          "on (default): the agent writes only its cwd, a private TMPDIR and its CLI's state; "
          "off: with all your rights")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  command
      .add_option("--network", options->network,
                  "on (default), or none: the agent opens no network socket (Unix sockets stay)")
      ->check(CLI::IsMember({"on", "none"}))
      ->type_name("on|none");
  command
      .add_option("--allow-write", options->allow_write,
                  "Let the confined agent write PATH too, a folder or file (repeatable)")
      ->allow_extra_args(false)
      ->type_name("PATH");
  command
      .add_option("--hide", options->hide,
                  "Hide PATH from the confined agent too, beside your secrets (repeatable)")
      ->allow_extra_args(false)
      ->type_name("PATH");
  command
      .add_option("--prompt", options->prompt,
                  "The prompt of an ACP agent's session (--adapter acp -- CMD ARGS...)")
      ->each([options](const std::string&) { options->has_prompt = true; })
      ->type_name("TEXT");
  command.add_flag("--keep-open", options->keep_open,
                   "Keep an ACP agent's session open between turns (idle) for mission send, "
                   "until mission exec stop");
  command
      .add_option("--allow", options->allow,
                  "Answer an ACP agent's permission requests that PATTERN matches with allow "
                  "(repeatable): KIND or KIND:GLOB, e.g. edit, 'execute:git status*'")
      ->allow_extra_args(false)
      ->type_name("PATTERN");
  command
      .add_option("--deny", options->deny,
                  "Answer those PATTERN matches with reject, whatever --allow says "
                  "(repeatable), e.g. 'execute:rm *'")
      ->allow_extra_args(false)
      ->type_name("PATTERN");
  command
      .add_option("--policy", options->policy, "Read allow and deny patterns from a TOML FILE too")
      ->type_name("FILE");
  command
      .add_option("command", options->command,
                  "After --: the command (generic), or the arguments the adapter adds its flags to")
      ->type_name("ARGS...");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_agent(context, *options); };
  });
}

}  // namespace mission::cli
