#pragma once
// Decoding of the planning and templates tools' validated arguments
// (snake_case, as seed 003 names them) into their typed requests. Declared
// in the requests' namespace so nlohmann's get<Request>() finds them.

#include <nlohmann/json.hpp>

#include "daemon/planning/requests.hpp"

namespace mission::daemon::planning {

void from_json(const nlohmann::json& j, WorkflowCreateRequest& request);
void from_json(const nlohmann::json& j, WorkflowGetRequest& request);
void from_json(const nlohmann::json& j, WorkflowListRequest& request);
void from_json(const nlohmann::json& j, WorkflowSetPlanRequest& request);
void from_json(const nlohmann::json& j, TaskAddRequest& request);
// One task of a plan (tools/fields/plan_task, already validated).
PlanTaskInput plan_task_input(const nlohmann::json& entry);
void from_json(const nlohmann::json& j, WorkflowUpdateStatusRequest& request);
void from_json(const nlohmann::json& j, WorkflowSetParallelismRequest& request);
void from_json(const nlohmann::json& j, TaskGetRequest& request);
void from_json(const nlohmann::json& j, TaskSetPlanRequest& request);
void from_json(const nlohmann::json& j, TaskUpdateStatusRequest& request);
void from_json(const nlohmann::json& j, TaskReplanRequest& request);
void from_json(const nlohmann::json& j, CheckpointAddRequest& request);
void from_json(const nlohmann::json& j, CheckpointListRequest& request);
void from_json(const nlohmann::json& j, TaskLoadContextRequest& request);
void from_json(const nlohmann::json& j, WorkflowSummaryRequest& request);
void from_json(const nlohmann::json& j, NextTasksRequest& request);
void from_json(const nlohmann::json& j, WorkflowIdRequest& request);
void from_json(const nlohmann::json& j, TaskIdRequest& request);
void from_json(const nlohmann::json& j, RepositoryRegisterRequest& request);
void from_json(const nlohmann::json& j, RepositoryListRequest& request);
void from_json(const nlohmann::json& j, RepositoryGetRequest& request);
void from_json(const nlohmann::json& j, TemplateCreateRequest& request);
void from_json(const nlohmann::json& j, TemplateListRequest& request);
void from_json(const nlohmann::json& j, TemplateGetRequest& request);
void from_json(const nlohmann::json& j, TemplateApplyRequest& request);

// The position a list call gives: cursor (a decimal position), offset, limit.
ListPosition list_position(const nlohmann::json& j, std::size_t default_limit);

}  // namespace mission::daemon::planning
