// mission tasks MISSION: a mission's tasks with their status, phase, change
// counts and scope check.

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"

namespace mission::cli {

void define_tasks_command(CLI::App& command, CliContext& context) {
  auto id = std::make_shared<std::string>();
  command.add_option("mission", *id, "Mission or workflow id")->required()->type_name("MISSION");
  command.callback([&context, id] {
    context.action = [&context, id] {
      nlohmann::json detail = context.connect().client.call("mission.get", {{"id", *id}});
      nlohmann::json tasks = detail.value("tasks", nlohmann::json::array());
      if (context.options.json) {
        print_json({{"mission_id", *id}, {"tasks", tasks}});
      } else {
        print_task_table(tasks);
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
