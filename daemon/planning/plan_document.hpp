#pragma once
// A workflow's plan as a person edits it (mission workflows edit, the
// control API's workflow.get_plan): the same shape a plan file takes and
// workflow.create and workflow.set_plan accept, so that reading it back
// unchanged changes nothing.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::daemon::planning {

// {id, name, status, plan: {summary, approach, tasks, risks, assumptions},
// maxParallelTasks, autoCreateWorkspaces, startedTasks}. Tasks in plan
// order, each {name, description, sequence, depends_on (only the
// prerequisites the plan named), files_likely_affected,
// acceptance_criteria, and parallel_group and estimated_complexity when
// set}. startedTasks: the names of tasks no longer pending, which make the
// plan one that cannot be replaced. Throws not_found for an unknown id.
nlohmann::json workflow_plan_document(store::Database& db, const std::string& id);

}  // namespace mission::daemon::planning
