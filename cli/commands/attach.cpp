// mission attach: the terminal of an agent the daemon runs on one, from any
// terminal, repainted as it is now; Ctrl-] detaches and the agent runs on.

#include <optional>

#include "cli/commands/command_table.hpp"
#include "cli/execution_reference.hpp"
#include "cli/terminal_attach.hpp"

namespace mission::cli {
namespace {

struct AttachOptions {
  std::string id;
  bool read_only = false;
};

int run_attach(const CliContext& context, const AttachOptions& options) {
  DaemonConnection connection = context.connect();
  std::optional<DaemonClient> events = context.connect_if_running();
  const std::string id = resolve_execution(connection.client, options.id);
  return attach_terminal(connection.client, id, options.read_only, events ? &*events : nullptr);
}

}  // namespace

void define_attach_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<AttachOptions>();
  command.add_option("id", options->id, "Execution: id, unique prefix, name or @last")
      ->required()
      ->type_name("EXEC");
  command.add_flag("--read-only,-r", options->read_only,
                   "Watch only: the viewer that types keeps the keyboard");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_attach(context, *options); };
  });
}

}  // namespace mission::cli
