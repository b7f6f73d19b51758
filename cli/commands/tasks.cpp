// mission tasks MISSION [--task TASK]: a mission's tasks with their status,
// phase, change counts and scope check; with --task, every path that task
// changed.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"

namespace mission::cli {
namespace {

struct TasksOptions {
  std::string mission_id;
  std::string task_id;
};

// A task's whole change set, page by page (task.changes pages forward).
nlohmann::json all_changes(DaemonClient& client, const std::string& task_id) {
  nlohmann::json changes = nlohmann::json::array();
  nlohmann::json params = {{"taskId", task_id}};
  for (;;) {
    nlohmann::json page = client.call("task.changes", params);
    for (auto& change : page.at("changes")) changes.push_back(std::move(change));
    if (!page.contains("nextCursor")) return changes;
    params["cursor"] = page.at("nextCursor");
  }
}

int run_tasks(const CliContext& context, const TasksOptions& given) {
  DaemonConnection connection = context.connect();
  DaemonClient& client = connection.client;
  TasksOptions options = given;
  options.mission_id = resolve_mission_or_workflow(client, given.mission_id);
  if (!given.task_id.empty())
    options.task_id = resolve_task(client, given.task_id, options.mission_id).task_id;
  if (!options.task_id.empty()) {
    nlohmann::json changes = all_changes(client, options.task_id);
    if (context.options.json) {
      print_json({{"taskId", options.task_id}, {"changes", changes}});
    } else {
      print_change_list(changes);
    }
    return kExitOk;
  }
  nlohmann::json tasks = fetch_all(client, "mission.tasks", {{"id", options.mission_id}}, "tasks");
  if (context.options.json) {
    print_json({{"missionId", options.mission_id}, {"tasks", tasks}});
  } else {
    print_task_table(tasks);
  }
  return kExitOk;
}

}  // namespace

void define_tasks_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<TasksOptions>();
  command.add_option("mission", options->mission_id, kMissionArgumentHelp)
      ->required()
      ->type_name("MISSION");
  command
      .add_option("--task", options->task_id,
                  "List every path this task changed (its id, a prefix or its name)")
      ->type_name("TASK");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_tasks(context, *options); };
  });
}

}  // namespace mission::cli
