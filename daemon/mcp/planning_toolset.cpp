// The planning and templates toolsets (seed orchestration-mcp-interface.md,
// docs/adr/0015): one row per tool, decoded into its typed request
// (daemon/planning/requests.hpp). Writers get a planning Caller whose
// changes become the same live events tracking publishes; readers go
// through the session's DAG cache.

#include "daemon/mcp/planning_caller.hpp"
#include "daemon/mcp/planning_decoders.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "daemon/planning/workflows.hpp"

namespace mission::daemon::mcp {
namespace {

template <class Request, nlohmann::json (*Function)(planning::Caller&, const Request&)>
nlohmann::json written(ToolContext& context, const Request& request) {
  planning::Caller caller = planning_caller(context);
  return Function(caller, request);
}

template <class Request, nlohmann::json (*Function)(store::Database&, planning::PlanCache*,
                                                    const Request&, KeyStyle)>
nlohmann::json cached(ToolContext& context, const Request& request) {
  return Function(context.db, context.plans, request, KeyStyle::snake);
}

template <class Request,
          nlohmann::json (*Function)(store::Database&, planning::PlanCache*, const Request&)>
nlohmann::json cached_plain(ToolContext& context, const Request& request) {
  return Function(context.db, context.plans, request);
}

template <class Request, nlohmann::json (*Function)(store::Database&, const Request&, KeyStyle)>
nlohmann::json read(ToolContext& context, const Request& request) {
  return Function(context.db, request, KeyStyle::snake);
}

}  // namespace

std::span<const ToolRow> planning_tools() {
  using namespace planning;
  static constexpr ToolRow kTools[] = {
      {"workflow_create", ToolMode::immediate, true,
       immediate<WorkflowCreateRequest, written<WorkflowCreateRequest, workflow_create>>},
      {"workflow_get", ToolMode::immediate, false,
       immediate<WorkflowGetRequest, cached<WorkflowGetRequest, workflow_get>>},
      {"workflow_list", ToolMode::immediate, false,
       immediate<WorkflowListRequest, read<WorkflowListRequest, workflow_list>>},
      {"workflow_set_plan", ToolMode::immediate, true,
       immediate<WorkflowSetPlanRequest, written<WorkflowSetPlanRequest, workflow_set_plan>>},
      {"workflow_update_status", ToolMode::immediate, true,
       immediate<WorkflowUpdateStatusRequest,
                 written<WorkflowUpdateStatusRequest, workflow_update_status>>},
      {"workflow_set_parallelism", ToolMode::immediate, true,
       immediate<WorkflowSetParallelismRequest,
                 written<WorkflowSetParallelismRequest, workflow_set_parallelism>>},
      {"task_get", ToolMode::immediate, false,
       immediate<TaskGetRequest, cached<TaskGetRequest, task_get>>},
      {"task_set_plan", ToolMode::immediate, true,
       immediate<TaskSetPlanRequest, written<TaskSetPlanRequest, task_set_plan>>},
      {"task_update_status", ToolMode::immediate, true,
       immediate<TaskUpdateStatusRequest, written<TaskUpdateStatusRequest, task_update_status>>},
      {"task_replan", ToolMode::immediate, true,
       immediate<TaskReplanRequest, written<TaskReplanRequest, task_replan>>},
      {"checkpoint_add", ToolMode::immediate, true,
       immediate<CheckpointAddRequest, written<CheckpointAddRequest, checkpoint_add>>},
      {"checkpoint_list", ToolMode::immediate, false,
       immediate<CheckpointListRequest, read<CheckpointListRequest, checkpoint_list>>},
      {"task_load_context", ToolMode::immediate, false,
       immediate<TaskLoadContextRequest, cached_plain<TaskLoadContextRequest, task_load_context>>},
      {"workflow_get_summary", ToolMode::immediate, false,
       immediate<WorkflowSummaryRequest,
                 cached_plain<WorkflowSummaryRequest, workflow_get_summary>>},
      {"workflow_next_tasks", ToolMode::immediate, false,
       immediate<NextTasksRequest, cached<NextTasksRequest, workflow_next_tasks>>},
      {"workflow_progress", ToolMode::immediate, false,
       immediate<WorkflowIdRequest, cached<WorkflowIdRequest, workflow_progress>>},
      {"task_check_dependencies", ToolMode::immediate, false,
       immediate<TaskIdRequest, cached<TaskIdRequest, task_check_dependencies>>},
      {"repository_register", ToolMode::immediate, true,
       immediate<RepositoryRegisterRequest,
                 written<RepositoryRegisterRequest, repository_register>>},
      {"repository_list", ToolMode::immediate, false,
       immediate<RepositoryListRequest, read<RepositoryListRequest, repository_list>>},
      {"repository_get", ToolMode::immediate, false,
       immediate<RepositoryGetRequest, read<RepositoryGetRequest, repository_get>>},
  };
  return kTools;
}

std::span<const ToolRow> template_tools() {
  using namespace planning;
  static constexpr ToolRow kTools[] = {
      {"template_create", ToolMode::immediate, true,
       immediate<TemplateCreateRequest, written<TemplateCreateRequest, template_create>>},
      {"template_list", ToolMode::immediate, false,
       immediate<TemplateListRequest, read<TemplateListRequest, template_list>>},
      {"template_apply", ToolMode::immediate, true,
       immediate<TemplateApplyRequest, written<TemplateApplyRequest, template_apply>>},
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
