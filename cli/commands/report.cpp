// mission report MISSION: a summary ready to paste into a pull request:
// phases, tasks with outcomes and change sets, decisions, open blockers and
// scope warnings, and for a workflow that was run, its last run with every
// task's attempts, times and tokens; as Markdown or as the JSON it is made
// from.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"
#include "cli/run_patch.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ReportOptions {
  std::string id;
  std::string format = "markdown";
};

// Each task's files as its run merged them (or left them on its branch),
// read from git: a task an agent ran without start_task and complete_task
// has no change set of its own. A repository moved or pruned since leaves
// the task without them, not the report.
void add_run_files(nlohmann::json& run) {
  const std::string repository = run.value("repository", "");
  if (repository.empty()) return;
  for (auto& task : run.at("tasks")) {
    try {
      if (auto range = task_patch_range(repository, task))
        task["filesChanged"] = files_in_range(repository, *range);
    } catch (const MissionError&) {
    }
  }
}

}  // namespace

void define_report_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<ReportOptions>();
  command.add_option("mission", options->id, kMissionArgumentHelp)
      ->required()
      ->type_name("MISSION");
  command.add_option("--format", options->format, "markdown (default) or json")
      ->check(CLI::IsMember({"markdown", "json"}))
      ->type_name("FORMAT");
  command.callback([&context, options] {
    context.action = [&context, options] {
      DaemonConnection connection = context.connect();
      DaemonClient& client = connection.client;
      options->id = resolve_mission_or_workflow(client, options->id);
      nlohmann::json detail = gather_report(control_call(client), options->id);
      if (detail.contains("run")) add_run_files(detail["run"]);
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
