#include "daemon/rpc/planning_methods.hpp"

#include "daemon/mcp/planning_decoders.hpp"
#include "daemon/planning/plan_document.hpp"
#include "daemon/planning/record_reference.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

constexpr KeyStyle kCamel = KeyStyle::camel;

planning::ListPosition position_of(const nlohmann::json& j) {
  planning::ListPosition position;
  if (j.contains("cursor")) position.cursor = j.at("cursor").get<std::int64_t>();
  position.limit = j.value("limit", std::size_t{0});
  return position;
}

}  // namespace

void from_json(const nlohmann::json& j, WorkflowListMethodRequest& request) {
  if (j.contains("status")) request.list.statuses = j.at("status").get<std::vector<std::string>>();
  if (j.contains("repositoryPath"))
    request.list.repository_path = j.at("repositoryPath").get<std::string>();
  request.list.position = position_of(j);
}

void from_json(const nlohmann::json& j, RecordResolveRequest& request) {
  request.reference = j.at("reference").get<std::string>();
  request.missions = j.value("missions", false);
  if (j.contains("workflow")) request.workflow = j.at("workflow").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowGraphRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("after")) request.after = j.at("after").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowMethodRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.limit = j.value("limit", std::size_t{0});
}

void from_json(const nlohmann::json& j, TemplateListMethodRequest& request) {
  request.list.position = position_of(j);
}

void from_json(const nlohmann::json& j, TemplateApplyMethodRequest& request) {
  request.apply.template_id = j.at("id").get<std::string>();
  request.apply.workflow_name = j.value("name", std::string());
  if (j.contains("variables")) {
    request.apply.variables = j.at("variables").get<std::map<std::string, std::string>>();
  }
  if (j.contains("repositoryPath"))
    request.apply.repository_path = j.at("repositoryPath").get<std::string>();
  if (j.contains("maxParallelTasks"))
    request.apply.max_parallel_tasks = j.at("maxParallelTasks").get<std::int64_t>();
  request.cwd = j.at("cwd").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowCreateMethodRequest& request) {
  request.create.name = j.at("name").get<std::string>();
  request.create.source_type = "custom";
  if (j.contains("sourceRef")) request.create.source_ref = j.at("sourceRef").get<std::string>();
  const nlohmann::json& plan = j.at("plan");
  request.create.source_content = plan.at("summary").get<std::string>();
  request.create.max_parallel_tasks = j.value("maxParallelTasks", std::int64_t{1});
  request.create.auto_create_workspaces = j.value("autoCreateWorkspaces", false);
  // The plan as workflow_set_plan decodes it, each task checked against
  // its schema.
  request.plan =
      nlohmann::json{{"id", ""}, {"plan", plan}}.get<planning::WorkflowSetPlanRequest>().plan;
  request.cwd = j.at("cwd").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowSetPlanMethodRequest& request) {
  request.id = j.at("id").get<std::string>();
  // The plan as workflow_set_plan decodes it, each task checked against
  // its schema.
  request.plan = nlohmann::json{{"id", request.id}, {"plan", j.at("plan")}}
                     .get<planning::WorkflowSetPlanRequest>()
                     .plan;
  if (j.contains("maxParallelTasks"))
    request.max_parallel_tasks = j.at("maxParallelTasks").get<std::int64_t>();
  if (j.contains("autoCreateWorkspaces"))
    request.auto_create_workspaces = j.at("autoCreateWorkspaces").get<bool>();
}

void from_json(const nlohmann::json& j, WorkflowResetRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("task")) request.task = j.at("task").get<std::string>();
}

nlohmann::json handle_workflow_resolve(MethodContext& context,
                                       const RecordResolveRequest& request) {
  planning::ResolvedRecord resolved = planning::resolve_workflow_reference(
      context.services.db, request.reference, request.missions);
  return {{"id", resolved.id}, {"matchedBy", resolved.matched_by}};
}

nlohmann::json handle_task_resolve(MethodContext& context, const RecordResolveRequest& request) {
  planning::ResolvedRecord resolved =
      planning::resolve_task_reference(context.services.db, request.reference, request.workflow);
  return {{"taskId", resolved.id},
          {"workflowId", resolved.workflow_id},
          {"matchedBy", resolved.matched_by}};
}

nlohmann::json handle_workflow_list(MethodContext& context,
                                    const WorkflowListMethodRequest& request) {
  return planning::workflow_list(context.services.db, request.list, kCamel);
}

nlohmann::json handle_workflow_get(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_get(context.services.db, context.services.mcp.plans,
                                {request.id, true, true}, kCamel);
}

nlohmann::json handle_workflow_graph(MethodContext& context, const WorkflowGraphRequest& request) {
  // Without `after`, the whole graph in one reply, as clients that do not
  // page expect: one too large for a reply is refused rather than cut.
  store::Database& db = context.services.db;
  planning::PlanCache* plans = context.services.mcp.plans;
  if (!request.after) return planning::workflow_graph(db, plans, request.id, kCamel);
  return planning::workflow_graph(db, plans, request.id, kCamel, *request.after,
                                  limits::kMaxReplyBytes);
}

nlohmann::json handle_workflow_next(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_next_tasks(context.services.db, context.services.mcp.plans,
                                       {request.id, true, request.limit}, kCamel);
}

nlohmann::json handle_workflow_progress(MethodContext& context,
                                        const WorkflowMethodRequest& request) {
  return planning::workflow_progress(context.services.db, context.services.mcp.plans, {request.id},
                                     kCamel);
}

nlohmann::json handle_template_list(MethodContext& context,
                                    const TemplateListMethodRequest& request) {
  return planning::template_list(context.services.db, request.list, kCamel);
}

nlohmann::json handle_template_get(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::template_get(context.services.db, {request.id}, kCamel);
}

planning::Caller person_caller(MethodContext& context, const std::string& cwd) {
  store::Database& db = context.services.db;
  return planning::Caller{
      db, "",
      [&context, &db](std::string_view kind, std::string_view change, const std::string& id) {
        if (kind == "mission") {
          tracking::add_mission_event(context.events, db, change, id, "");
        } else {
          tracking::add_task_event(context.events, db, change, id, "");
        }
      },
      context.services.mcp.plans, cwd};
}

nlohmann::json handle_workflow_create(MethodContext& context,
                                      const WorkflowCreateMethodRequest& request) {
  planning::Caller caller = person_caller(context, request.cwd);
  nlohmann::json made = planning::workflow_create_planned(caller, request.create, request.plan);
  return {{"workflowId", made.at("workflow_id")},
          {"name", made.at("name")},
          {"tasksCreated", made.at("tasks_created")},
          {"dependencies", made.at("dependencies")},
          {"impliedDependencies", made.at("implied_dependencies")},
          {"parallelizableGroups", made.at("parallelizable_groups")},
          {"status", made.at("status")}};
}

nlohmann::json handle_workflow_get_plan(MethodContext& context,
                                        const WorkflowMethodRequest& request) {
  return planning::workflow_plan_document(context.services.db, request.id);
}

nlohmann::json handle_workflow_set_plan(MethodContext& context,
                                        const WorkflowSetPlanMethodRequest& request) {
  planning::Caller caller = person_caller(context, "");
  nlohmann::json installed = planning::workflow_replace_plan(
      caller, request.id, request.plan, request.max_parallel_tasks, request.auto_create_workspaces);
  return {{"workflowId", installed.at("workflow_id")},
          {"name", installed.at("name")},
          {"tasksCreated", installed.at("tasks_created")},
          {"dependencies", installed.at("dependencies")},
          {"impliedDependencies", installed.at("implied_dependencies")},
          {"parallelizableGroups", installed.at("parallelizable_groups")},
          {"status", installed.at("status")}};
}

nlohmann::json handle_workflow_delete(MethodContext& context,
                                      const WorkflowMethodRequest& request) {
  planning::Caller caller = person_caller(context, "");
  nlohmann::json deleted = planning::workflow_delete(caller, request.id);
  return {{"id", deleted.at("id")},
          {"name", deleted.at("name")},
          {"status", deleted.at("status")},
          {"tasksDeleted", deleted.at("tasks_deleted")}};
}

nlohmann::json handle_workflow_reset(MethodContext& context, const WorkflowResetRequest& request) {
  planning::Caller caller = person_caller(context, "");
  nlohmann::json reset = planning::workflow_reset(caller, request.id, request.task);
  return {{"id", reset.at("id")},
          {"tasksReset", reset.at("tasks_reset")},
          {"previousStatus", reset.at("previous_status")},
          {"status", reset.at("status")}};
}

nlohmann::json handle_template_apply(MethodContext& context,
                                     const TemplateApplyMethodRequest& request) {
  planning::Caller caller = person_caller(context, request.cwd);
  nlohmann::json applied = planning::template_apply(caller, request.apply);
  return {{"workflowId", applied.at("workflow_id")},
          {"templateId", applied.at("template_id")},
          {"tasksCreated", applied.at("tasks_created")},
          {"status", applied.at("status")}};
}

}  // namespace mission::daemon
