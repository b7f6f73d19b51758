#pragma once
// Human output for what agents track: the `mission missions list` table,
// `missions show`, `tasks`, `context`, the `report` Markdown and the
// `check` verdict. --json prints the daemon's documents unchanged.

#include <nlohmann/json.hpp>
#include <string>

namespace mission::cli {

void print_mission_table(const nlohmann::json& missions);
// `detail` is a mission.get result.
void print_mission(const nlohmann::json& detail);
void print_task_table(const nlohmann::json& tasks);
// One line per changed path ("+ path", "~ path", "- path", "> old -> new"),
// marking those outside the task's areas.
void print_change_list(const nlohmann::json& changes);
// `context` is a mission.context (get_context) result.
void print_context(const nlohmann::json& context);
// A summary of a mission.get result ready to paste into a pull request;
// for a workflow that was run, `run` (workflow.runReport's run with every
// page of its tasks) adds the run, attempts, times and tokens per task.
std::string mission_report_markdown(const nlohmann::json& detail);
// `result` is a mission.check result.
void print_check(const nlohmann::json& result);

}  // namespace mission::cli
