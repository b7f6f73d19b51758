// mission watch: the daemon's events as they happen, one line each for a
// person, or one JSON object per line with --json.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/event_view.hpp"
#include "cli/exit_codes.hpp"

namespace mission::cli {
namespace {

struct WatchOptions {
  std::string execution_id;
};

int run_watch(const CliContext& context, const WatchOptions& options) {
  DaemonConnection connection = context.connect();
  nlohmann::json params = nlohmann::json::object();
  if (!options.execution_id.empty()) params["agentExecutionId"] = options.execution_id;
  connection.client.call("events.subscribe", params);
  for (;;) {
    nlohmann::json event = connection.client.read_event();
    std::printf("%s\n", context.options.json ? event.dump().c_str() : event_line(event).c_str());
    std::fflush(stdout);
  }
}

}  // namespace

void define_watch_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<WatchOptions>();
  command.add_option("--execution", options->execution_id, "Only this execution's events")
      ->type_name("ID");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_watch(context, *options); };
  });
}

}  // namespace mission::cli
