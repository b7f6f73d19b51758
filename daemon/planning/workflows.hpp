#pragma once
// What the planning and templates tools do (seed orchestration-mcp-interface.md,
// docs/adr/0015): planned workflows, their plans and tasks, checkpoints,
// context within a budget, the orchestration queries, repositories and
// templates. Each function takes the tool's typed request and returns its
// structured result in the seed's words, or throws MissionError. Writers
// take the Caller (who asks, the events); readers take the store and the
// DAG cache, and answer in snake_case (tools) or camelCase (control API).

#include <nlohmann/json.hpp>

#include "daemon/planning/plan_cache.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/requests.hpp"
#include "shared/key_style.hpp"

namespace mission::daemon::planning {

nlohmann::json workflow_create(Caller& caller, const WorkflowCreateRequest& request);
nlohmann::json workflow_set_plan(Caller& caller, const WorkflowSetPlanRequest& request);
// A workflow and its whole plan at once (a person's plan file: the
// control API's workflow.create). The plan is checked before anything is
// made, and the caller's one transaction holds both, so a refused plan
// leaves no workflow behind. The workflow is ready.
nlohmann::json workflow_create_planned(Caller& caller, const WorkflowCreateRequest& request,
                                       const WorkflowPlanInput& plan);
// The workflow `id`, when a person may give it a new plan: refused, with
// what to do instead, for one that ended, runs, or has a task that started.
store::MissionRow require_replannable(store::Database& db, const std::string& id);
// A person's new plan for a workflow (mission workflows edit, the control
// API's workflow.set_plan): replaces its planned tasks with `plan`, checked
// first, and sets its parallelism and workspaces when given. Refused, with
// what to do instead, for a workflow that ended, runs, or has a task that
// started. The caller's transaction holds it all.
nlohmann::json workflow_replace_plan(Caller& caller, const std::string& id,
                                     const WorkflowPlanInput& plan,
                                     std::optional<std::int64_t> max_parallel_tasks,
                                     std::optional<bool> auto_create_workspaces);
nlohmann::json workflow_update_status(Caller& caller, const WorkflowUpdateStatusRequest& request);
// Deletes a planned workflow with its tasks and records (the control API's
// workflow.delete, mission workflows rm), whatever its status, once nothing
// works on it: refused, saying what to do first, while a run of it is live,
// a task is in progress or claimed by an agent, or a git worktree of it is
// still on disk. Returns its id, name, status and number of tasks.
nlohmann::json workflow_delete(Caller& caller, const std::string& id);
// Puts a workflow's failed tasks (or the one `task` names, by name or id)
// back to pending, so that its next run tries them afresh, and a workflow
// that ended failed or partial back to ready (the control API's
// workflow.reset, mission workflows reset). Refused while a run of it is
// live, or for a named task that has not failed. Returns the names of the
// tasks reset and the workflow's status before and after.
nlohmann::json workflow_reset(Caller& caller, const std::string& id,
                              const std::optional<std::string>& task);
nlohmann::json workflow_set_parallelism(Caller& caller,
                                        const WorkflowSetParallelismRequest& request);
nlohmann::json task_set_plan(Caller& caller, const TaskSetPlanRequest& request);
nlohmann::json task_update_status(Caller& caller, const TaskUpdateStatusRequest& request);
nlohmann::json task_replan(Caller& caller, const TaskReplanRequest& request);
// A task task_add made: its id and name, whether every prerequisite is
// done, and the names of its prerequisites (named or implied), in plan
// order.
struct TaskAdded {
  std::string id;
  std::string name;
  bool ready = true;
  std::vector<std::string> depends_on;
};
// Adds one task to a workflow that has not ended; a new task depends only
// on tasks already there, so it never makes a cycle. Reads by index, never
// the whole plan.
TaskAdded task_add(Caller& caller, const TaskAddRequest& request);
nlohmann::json checkpoint_add(Caller& caller, const CheckpointAddRequest& request);
nlohmann::json repository_register(Caller& caller, const RepositoryRegisterRequest& request);
nlohmann::json template_create(Caller& caller, const TemplateCreateRequest& request);
nlohmann::json template_apply(Caller& caller, const TemplateApplyRequest& request);

nlohmann::json workflow_get(store::Database& db, PlanCache* cache,
                            const WorkflowGetRequest& request, KeyStyle style);
nlohmann::json workflow_list(store::Database& db, const WorkflowListRequest& request,
                             KeyStyle style);
nlohmann::json task_get(store::Database& db, PlanCache* cache, const TaskGetRequest& request,
                        KeyStyle style);
nlohmann::json checkpoint_list(store::Database& db, const CheckpointListRequest& request,
                               KeyStyle style);
nlohmann::json task_load_context(store::Database& db, PlanCache* cache,
                                 const TaskLoadContextRequest& request);
nlohmann::json workflow_get_summary(store::Database& db, PlanCache* cache,
                                    const WorkflowSummaryRequest& request);
nlohmann::json workflow_next_tasks(store::Database& db, PlanCache* cache,
                                   const NextTasksRequest& request, KeyStyle style);
// What workflow_next_tasks offers, for a caller in the daemon (a run
// dispatching agents): the ready, unclaimed tasks ranked best first
// (longest remaining chain, then plan order), at most `limit` (0: all).
// `recommended` as the tool says it: within max_parallel_tasks beside the
// tasks in progress or claimed, with no overlapping files. Reads through
// `cache` (may be null). Throws not_found for an unknown workflow.
struct NextReadyTask {
  std::string id;
  std::uint32_t critical_path_length = 0;
  bool recommended = false;
};
std::vector<NextReadyTask> next_ready_tasks(store::Database& db, PlanCache* cache,
                                            const std::string& workflow_id, std::size_t limit,
                                            bool include_failed = false);
nlohmann::json workflow_progress(store::Database& db, PlanCache* cache,
                                 const WorkflowIdRequest& request, KeyStyle style);
nlohmann::json task_check_dependencies(store::Database& db, PlanCache* cache,
                                       const TaskIdRequest& request, KeyStyle style);
nlohmann::json repository_list(store::Database& db, const RepositoryListRequest& request,
                               KeyStyle style);
nlohmann::json repository_get(store::Database& db, const RepositoryGetRequest& request,
                              KeyStyle style);
nlohmann::json template_list(store::Database& db, const TemplateListRequest& request,
                             KeyStyle style);
nlohmann::json template_get(store::Database& db, const TemplateGetRequest& request, KeyStyle style);

// The DAG of a workflow for a picture: nodes with their status and edges,
// drawn by the CLI (mission plan). Whole when `max_bytes` is npos; else one
// page whose lists' JSON stays within it (every node in plan order, then
// every edge, node by node; a page holds at least one item), with `more`
// and, while more remain, `after_cursor` to pass as `after` for the next
// ("" for the first). Throws invalid_argument for a cursor it did not give,
// or one of a plan replaced since.
nlohmann::json workflow_graph(store::Database& db, PlanCache* cache, const std::string& workflow_id,
                              KeyStyle style, const std::string& after = "",
                              std::size_t max_bytes = std::string::npos);

// Refuses to start the planned task `task_id` while its workflow does not
// run (planning, paused or ended: the error names the status) or a
// prerequisite is not done (naming them): start_task with task_id. Not a
// planned task: nothing. `cache` may be null.
void require_startable(store::Database& db, PlanCache* cache, const std::string& task_id);

}  // namespace mission::daemon::planning
