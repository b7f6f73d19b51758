#include "daemon/planning/plan_document.hpp"

#include <map>

#include "daemon/planning/plan_state.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::planning {
namespace {

nlohmann::json json_list(const std::string& text) {
  nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
  return list.is_array() ? list : nlohmann::json::array();
}

}  // namespace

nlohmann::json workflow_plan_document(store::Database& db, const std::string& id) {
  const store::MissionRow workflow = require_workflow(db, id, "id");
  store::PlanRepository plans(db);
  store::WorkflowPlanRow none;
  none.mission_id = workflow.id;
  const store::WorkflowPlanRow stored = plans.workflow_plan(workflow.id).value_or(none);
  const std::vector<store::PlannedTaskRow> rows = plans.planned_tasks(workflow.id);

  std::map<std::string, std::string> names;
  for (const auto& row : rows) names[row.id] = row.name;
  std::map<std::string, nlohmann::json> prerequisites;
  for (const auto& edge : plans.dependencies(workflow.id)) {
    auto name = names.find(edge.depends_on_id);
    if (name != names.end()) prerequisites[edge.task_id].push_back(name->second);
  }

  nlohmann::json tasks = nlohmann::json::array();
  nlohmann::json started = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json task = {
        {"name", row.name}, {"description", row.description}, {"sequence", row.sequence}};
    auto named = prerequisites.find(row.id);
    task["depends_on"] = named == prerequisites.end() ? nlohmann::json::array() : named->second;
    task["files_likely_affected"] = json_list(row.files_likely_affected);
    task["acceptance_criteria"] = json_list(row.acceptance_criteria);
    if (row.parallel_group) task["parallel_group"] = *row.parallel_group;
    if (row.complexity) task["estimated_complexity"] = *row.complexity;
    tasks.push_back(std::move(task));
    if (row.status != TaskStatus::pending) started.push_back(row.name);
  }
  return {{"id", workflow.id},
          {"name", workflow.name},
          {"status", seed_workflow_status(workflow.status)},
          {"plan",
           {{"summary", stored.plan_summary.value_or("")},
            {"approach", stored.plan_approach.value_or("")},
            {"tasks", std::move(tasks)},
            {"risks", json_list(stored.plan_risks)},
            {"assumptions", json_list(stored.plan_assumptions)}}},
          {"maxParallelTasks", stored.max_parallel_tasks},
          {"autoCreateWorkspaces", stored.auto_create_workspaces},
          {"startedTasks", std::move(started)}};
}

}  // namespace mission::daemon::planning
