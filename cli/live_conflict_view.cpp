#include "cli/live_conflict_view.hpp"

#include "cli/output.hpp"

namespace mission::cli {
namespace {

std::string task_text(const nlohmann::json& task) {
  return safe(task.value("name", "")) + " (" + safe(task.value("id", "")) + ")";
}

}  // namespace

std::string live_conflict_line(const nlohmann::json& conflict) {
  const nlohmann::json tasks = conflict.value("tasks", nlohmann::json::array());
  const std::string path = safe(conflict.value("path", ""));
  if (tasks.empty()) return "conflict: " + path;
  if (conflict.contains("withIntegrationBranch")) {
    return "conflict: task " + task_text(tasks[0]) + " and the integration branch " +
           safe(conflict.value("withIntegrationBranch", "")) + " both change " + path;
  }
  return "conflict: tasks " + task_text(tasks[0]) + " and " +
         (tasks.size() > 1 ? task_text(tasks[1]) : std::string("?")) + " both change " + path;
}

std::string live_conflict_detail(const nlohmann::json& conflict) {
  std::string branches;
  for (const auto& task : conflict.value("tasks", nlohmann::json::array())) {
    branches += (branches.empty() ? "" : " and ") + safe(task.value("branch", ""));
  }
  return "since " + short_time(conflict.value("since", nlohmann::json())) + ", branches " +
         branches + "; both agents were told; it clears when the changes merge or a task ends";
}

}  // namespace mission::cli
