// mission context MISSION: what get_context gives an agent, for a person:
// phases, tasks, decisions, milestones and open blockers, with its filters.

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::cli {
namespace {

struct ContextOptions {
  std::string id;
  std::vector<std::string> include{"phase_summary", "tasks", "decisions", "milestones", "blockers"};
  std::optional<int> phase;
  std::string agent;
  std::string since;
};

int run_context(const CliContext& context, const ContextOptions& options) {
  DaemonConnection connection = context.connect();
  const std::string id = resolve_mission_or_workflow(connection.client, options.id);
  nlohmann::json params = {{"missionId", id}, {"include", options.include}};
  nlohmann::json filter = nlohmann::json::object();
  if (options.phase) filter["phase"] = *options.phase;
  if (!options.agent.empty()) filter["agent"] = options.agent;
  if (!options.since.empty()) {
    filter["since"] = format_utc_iso8601(CliContext::since_option(options.since, unix_ms_now()));
  }
  if (!filter.empty()) params["filter"] = filter;
  nlohmann::json result = connection.client.call("mission.context", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_context(result);
  }
  return kExitOk;
}

}  // namespace

void define_context_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<ContextOptions>();
  command.add_option("mission", options->id, kMissionArgumentHelp)
      ->required()
      ->type_name("MISSION");
  command.add_option("--include", options->include, "Parts to show (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"phase_summary", "tasks", "decisions", "milestones", "blockers"}))
      ->type_name("LIST");
  command.add_option("--phase", options->phase, "Only this phase")
      ->check(CLI::Range(1, 100))
      ->type_name("N");
  command.add_option("--agent", options->agent, "Only tasks of this agent_name")->type_name("NAME");
  command
      .add_option("--since", options->since,
                  "Only items since then: 2h, 3d, yesterday or an ISO 8601 time")
      ->type_name("TIME");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_context(context, *options); };
  });
}

}  // namespace mission::cli
