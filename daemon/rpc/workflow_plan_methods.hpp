#pragma once
// workflow.plan: a person asks an agent to plan a new workflow (mission
// workflows plan GOAL; daemon/runs/workflow_planner.hpp).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/execution/agent_launch.hpp"
#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct WorkflowPlanRequest {
  // An existing workflow, not yet started, to hand to the planner (one an
  // agent left half made, say); empty: a new one named `name`.
  std::string workflow_id;
  std::string name;
  std::string goal;
  std::string source_type = "prompt";
  std::optional<std::string> source_ref;
  execution::AgentLaunchRequest launch;
};
void from_json(const nlohmann::json& j, WorkflowPlanRequest& request);

// Makes the workflow (planning), or takes the one named, then launches its
// planner; a launch that fails leaves no new workflow behind. Returns
// {workflowId, name, execution}.
nlohmann::json handle_workflow_plan(MethodContext& context, const WorkflowPlanRequest& request);

}  // namespace mission::daemon
