// mission status: the daemon and a summary of what it tracks.

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/status_view.hpp"

namespace mission::cli {
namespace {

int run_status(const CliContext& context) {
  DaemonConnection connection = context.connect();
  nlohmann::json status = connection.client.call("daemon.status");
  if (context.options.json) {
    print_json({{"daemon", daemon_view(status)},
                {"executions", status.value("executions", nlohmann::json::object())}});
  } else {
    print_daemon_status(status);
  }
  return kExitOk;
}

}  // namespace

void define_status_command(CLI::App& command, CliContext& context) {
  command.callback([&context] { context.action = [&context] { return run_status(context); }; });
}

}  // namespace mission::cli
