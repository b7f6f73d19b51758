#pragma once
// Control-API methods about planned work (docs/adr/0015), behind `mission
// workflows`, `plan`, `next`, `progress` and `templates`: workflow.list,
// workflow.get, workflow.graph, workflow.next, workflow.progress, workflow.create,
// template.list, template.get and template.apply. Each calls the planning module's own
// query (daemon/planning/workflows.hpp) through the daemon's DAG cache and
// answers in camelCase.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/requests.hpp"
#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct WorkflowListMethodRequest {
  planning::WorkflowListRequest list;
};
void from_json(const nlohmann::json& j, WorkflowListMethodRequest& request);

struct WorkflowMethodRequest {
  std::string id;
  std::size_t limit = 0;  // workflow.next: 0 is the tool's default
};
void from_json(const nlohmann::json& j, WorkflowMethodRequest& request);

// workflow.resolve and task.resolve: a workflow or a task named as people
// name it on the command line (daemon/planning/record_reference.hpp).
struct RecordResolveRequest {
  std::string reference;
  bool missions = false;                // workflow.resolve: missions count too
  std::optional<std::string> workflow;  // task.resolve: only this workflow's tasks
};
void from_json(const nlohmann::json& j, RecordResolveRequest& request);

// workflow.graph: the whole graph, or with `after` one page of it ("" for
// the first page, then each page's afterCursor).
struct WorkflowGraphRequest {
  std::string id;
  std::optional<std::string> after;
};
void from_json(const nlohmann::json& j, WorkflowGraphRequest& request);

struct TemplateListMethodRequest {
  planning::TemplateListRequest list;
};
void from_json(const nlohmann::json& j, TemplateListMethodRequest& request);

// template.apply: a person makes a workflow from a template, as
// template_apply does for an agent; the workflow has no owning execution.
struct TemplateApplyMethodRequest {
  planning::TemplateApplyRequest apply;
  std::string cwd;  // the person's working directory
};
void from_json(const nlohmann::json& j, TemplateApplyMethodRequest& request);

// workflow.create: a person makes a workflow with its whole plan (a plan
// file), in the method's one transaction; the workflow has no owning
// execution.
struct WorkflowCreateMethodRequest {
  planning::WorkflowCreateRequest create;
  planning::WorkflowPlanInput plan;
  std::string cwd;  // the person's working directory
};
void from_json(const nlohmann::json& j, WorkflowCreateMethodRequest& request);

// workflow.set_plan: a person replaces a workflow's plan (mission
// workflows edit), in the method's one transaction.
struct WorkflowSetPlanMethodRequest {
  std::string id;
  planning::WorkflowPlanInput plan;
  std::optional<std::int64_t> max_parallel_tasks;
  std::optional<bool> auto_create_workspaces;
};
void from_json(const nlohmann::json& j, WorkflowSetPlanMethodRequest& request);

// A person as the planning functions' caller (no execution: they may
// change any workflow), its changes told as events of the method's batch.
// `cwd`: where a workflow it makes works.
planning::Caller person_caller(MethodContext& context, const std::string& cwd);

nlohmann::json handle_workflow_list(MethodContext& context,
                                    const WorkflowListMethodRequest& request);
nlohmann::json handle_workflow_resolve(MethodContext& context, const RecordResolveRequest& request);
nlohmann::json handle_task_resolve(MethodContext& context, const RecordResolveRequest& request);
nlohmann::json handle_workflow_get(MethodContext& context, const WorkflowMethodRequest& request);
nlohmann::json handle_workflow_graph(MethodContext& context, const WorkflowGraphRequest& request);
nlohmann::json handle_workflow_next(MethodContext& context, const WorkflowMethodRequest& request);
nlohmann::json handle_workflow_progress(MethodContext& context,
                                        const WorkflowMethodRequest& request);
nlohmann::json handle_template_list(MethodContext& context,
                                    const TemplateListMethodRequest& request);
nlohmann::json handle_template_get(MethodContext& context, const WorkflowMethodRequest& request);
nlohmann::json handle_template_apply(MethodContext& context,
                                     const TemplateApplyMethodRequest& request);
nlohmann::json handle_workflow_create(MethodContext& context,
                                      const WorkflowCreateMethodRequest& request);
nlohmann::json handle_workflow_get_plan(MethodContext& context,
                                        const WorkflowMethodRequest& request);
nlohmann::json handle_workflow_set_plan(MethodContext& context,
                                        const WorkflowSetPlanMethodRequest& request);
// workflow.reset: mission workflows reset, and workflows run on a workflow
// that failed.
struct WorkflowResetRequest {
  std::string id;
  std::optional<std::string> task;
};
void from_json(const nlohmann::json& j, WorkflowResetRequest& request);
nlohmann::json handle_workflow_reset(MethodContext& context, const WorkflowResetRequest& request);
// workflow.delete: mission workflows rm.
nlohmann::json handle_workflow_delete(MethodContext& context, const WorkflowMethodRequest& request);

}  // namespace mission::daemon
