// mission missions list|show: the missions (and legacy workflows) agents
// recorded, newest first, and one of them in full.

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

struct MissionsOptions {
  std::string id;
  std::string cwd;
  bool here = false;
  std::size_t limit = limits::kDefaultMissionListLimit;
};

int run_list(const CliContext& context, const MissionsOptions& options) {
  nlohmann::json params = {{"limit", options.limit}};
  if (options.here || !options.cwd.empty())
    params["cwd"] = CliContext::working_directory(options.cwd);
  nlohmann::json result = context.connect().client.call("mission.list", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_mission_table(result.value("missions", nlohmann::json::array()));
  }
  return kExitOk;
}

int run_show(const CliContext& context, const MissionsOptions& given) {
  DaemonConnection connection = context.connect();
  DaemonClient& client = connection.client;
  MissionsOptions options = given;
  options.id = resolve_mission_or_workflow(client, given.id);
  nlohmann::json detail = client.call("mission.get", {{"id", options.id}});
  detail["tasks"] = fetch_all(client, "mission.tasks", {{"id", options.id}}, "tasks");
  detail["issues"] =
      fetch_all(client, "mission.journal", {{"id", options.id}, {"kind", "issues"}}, "entries");
  if (context.options.json) {
    print_json(detail);
  } else {
    print_mission(detail);
  }
  return kExitOk;
}

}  // namespace

void define_missions_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<MissionsOptions>();
  CLI::App* list = command.add_subcommand("list", "List missions and workflows, newest first");
  list->add_option("--cwd", options->cwd, "Only those recorded in DIR or below it")
      ->type_name("DIR");
  list->add_flag("--here", options->here, "Only those in the current directory or below it");
  list->add_option("--limit", options->limit, "At most this many (default 50)")
      ->check(CLI::Range(1, 10000))
      ->type_name("N");
  list->callback([&context, options] {
    context.action = [&context, options] { return run_list(context, *options); };
  });
  CLI::App* show = command.add_subcommand("show", "Show a mission: phases, tasks, blockers");
  show->add_option("id", options->id, kMissionArgumentHelp)->required()->type_name("MISSION");
  show->callback([&context, options] {
    context.action = [&context, options] { return run_show(context, *options); };
  });
}

}  // namespace mission::cli
