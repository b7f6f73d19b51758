#include "daemon/rpc/workflow_plan_methods.hpp"

#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/rpc/execution_run_methods.hpp"
#include "daemon/rpc/planning_methods.hpp"
#include "daemon/runs/workflow_planner.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/plan_repository.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, WorkflowPlanRequest& request) {
  request.workflow_id = j.value("workflowId", std::string());
  request.name = j.value("name", std::string());
  request.goal = j.value("goal", std::string());
  request.source_type = j.value("sourceType", std::string("prompt"));
  if (j.contains("sourceRef")) request.source_ref = j.at("sourceRef").get<std::string>();
  request.launch = j.at("launch").get<execution::AgentLaunchRequest>();
}

nlohmann::json handle_workflow_plan(MethodContext& context, const WorkflowPlanRequest& request) {
  store::Database& db = context.services.db;
  planning::WorkflowCreateRequest create;
  create.name = request.name;
  create.source_type = request.source_type;
  create.source_ref = request.source_ref;
  create.source_content = request.goal;
  std::string workflow_id = request.workflow_id;
  std::string name = request.name;
  std::string goal = request.goal;
  const bool made = workflow_id.empty();
  if (made) {
    store::Transaction transaction(db);
    planning::Caller caller = person_caller(context, request.launch.spec.cwd);
    workflow_id = planning::workflow_create(caller, create).at("id").get<std::string>();
    transaction.commit();
    context.events.publish_to(context.services.events);
  } else {
    name = planning::require_replannable(db, workflow_id).name;
    if (goal.empty()) {
      auto plan = store::PlanRepository(db).workflow_plan(workflow_id);
      if (plan && plan->source_content) goal = *plan->source_content;
    }
    if (goal.empty()) {
      throw MissionError(
          ErrorCode::invalid_argument, "workflow " + workflow_id + " has no goal to plan for",
          "give the goal: mission workflows plan \"GOAL\" --workflow " + workflow_id);
    }
  }

  execution::AgentLaunchServices services{db, context.services.events, context.services.launcher,
                                          context.services.paths};
  std::string execution_id;
  try {
    execution_id = runs::launch_planner(services, {workflow_id, name, goal, request.launch});
  } catch (const MissionError&) {
    if (!made) throw;
    // Nothing planned it: the workflow would wait in planning for nobody.
    store::Transaction transaction(db);
    planning::Caller caller = person_caller(context, "");
    planning::workflow_delete(caller, workflow_id);
    transaction.commit();
    context.events.publish_to(context.services.events);
    throw;
  }
  return {{"workflowId", workflow_id},
          {"name", name},
          {"execution", execution::execution_json(
                            db, execution::AgentExecutionRegistry(db).require(execution_id))}};
}

}  // namespace mission::daemon
