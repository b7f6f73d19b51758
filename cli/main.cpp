// mission: parses the command line with the command table, runs the chosen
// command, and turns every failure into a message and a documented exit code.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli_context.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"
#include "shared/version.hpp"

namespace {

using mission::cli::CliContext;

int report_error(const CliContext& context, const mission::MissionError& error) {
  if (context.options.json) mission::cli::print_json({{"error", error.to_payload()}});
  std::fprintf(stderr, "mission: %s\n", error.what());
  if (!error.hint().empty()) std::fprintf(stderr, "  hint: %s\n", error.hint().c_str());
  return error.code() == mission::ErrorCode::daemon_unavailable
             ? mission::cli::kExitDaemonUnavailable
             : mission::cli::kExitFailure;
}

bool named_on_line(std::string_view name, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (name == argv[i]) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CliContext context;
  CLI::App app{"mission: track and steer coding agents (see mission(1))", "mission"};
  app.set_version_flag("--version", std::string(mission::kVersion));
  app.add_flag("--json", context.options.json, "Print one JSON document on stdout");
  app.add_option("--socket", context.options.socket, "Daemon socket (or $MISSION_SOCKET)")
      ->type_name("PATH");
  app.add_flag("--no-autostart", context.options.no_autostart,
               "Exit 3 instead of starting the daemon");
  app.require_subcommand(1);
  for (const auto& spec : mission::cli::commands()) {
    CLI::App* command = app.add_subcommand(spec.name, spec.summary);
    // Global options may follow the subcommand: `mission status --json`.
    command->fallthrough();
    // Only a command named on the line gets its options and actions: each
    // one built costs allocations on every run, and a one-request command
    // such as `mission status` is meant to take a few milliseconds. A word
    // that merely equals a command's name only builds one command more.
    if (named_on_line(spec.name, argc, argv)) spec.define(*command, context);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? mission::cli::kExitOk : mission::cli::kExitUsage;
  }

  try {
    return context.action ? context.action() : mission::cli::kExitUsage;
  } catch (const mission::MissionError& e) {
    return report_error(context, e);
  } catch (const std::exception& e) {
    return report_error(context, mission::MissionError(mission::ErrorCode::internal, e.what()));
  }
}
