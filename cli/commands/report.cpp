// mission report MISSION: a summary ready to paste into a pull request:
// phases, tasks with outcomes and change sets, decisions, open blockers and
// scope warnings, as Markdown or as the JSON it is made from.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"

namespace mission::cli {
namespace {

struct ReportOptions {
  std::string id;
  std::string format = "markdown";
};

}  // namespace

void define_report_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<ReportOptions>();
  command.add_option("mission", options->id, "Mission or workflow id")->required()->type_name("MISSION");
  command.add_option("--format", options->format, "markdown (default) or json")
      ->check(CLI::IsMember({"markdown", "json"}))
      ->type_name("FORMAT");
  command.callback([&context, options] {
    context.action = [&context, options] {
      DaemonConnection connection = context.connect();
      DaemonClient& client = connection.client;
      nlohmann::json detail = client.call("mission.get", {{"id", options->id}});
      detail["tasks"] = fetch_all(client, "mission.tasks", {{"id", options->id}}, "tasks");
      for (const char* kind : {"decisions", "issues", "milestones"}) {
        detail[kind] = fetch_all(client, "mission.journal", {{"id", options->id}, {"kind", kind}}, "entries");
      }
      if (context.options.json || options->format == "json") {
        print_json(detail);
      } else {
        std::fputs(mission_report_markdown(detail).c_str(), stdout);
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
