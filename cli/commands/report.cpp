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
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ReportOptions {
  std::string id;
  std::string format = "markdown";
};

// The workflow's last run with all its tasks, page after page; null when
// it was never run.
nlohmann::json last_run(DaemonClient& client, const std::string& workflow_id) {
  nlohmann::json params = {{"id", workflow_id}, {"after", 0}};
  nlohmann::json run;
  nlohmann::json tasks = nlohmann::json::array();
  for (;;) {
    nlohmann::json page;
    try {
      page = client.call("workflow.runReport", params);
    } catch (const MissionError& e) {
      if (e.code() == ErrorCode::not_found && run.is_null()) return nullptr;
      throw;
    }
    // Pinned to the run of the first page, should another start meanwhile.
    if (run.is_null()) {
      run = page.at("run");
      params["runId"] = run.at("id");
    }
    for (auto& task : page.at("tasks")) tasks.push_back(std::move(task));
    if (!page.value("more", false)) break;
    params["after"] = page.at("afterCursor");
  }
  run["tasks"] = std::move(tasks);
  return run;
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
      nlohmann::json detail = client.call("mission.get", {{"id", options->id}});
      detail["tasks"] = fetch_all(client, "mission.tasks", {{"id", options->id}}, "tasks");
      for (const char* kind : {"decisions", "issues", "milestones"}) {
        detail[kind] =
            fetch_all(client, "mission.journal", {{"id", options->id}, {"kind", kind}}, "entries");
      }
      if (detail.at("mission").value("kind", "mission") != "mission") {
        nlohmann::json run = last_run(client, options->id);
        if (!run.is_null()) detail["run"] = std::move(run);
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
