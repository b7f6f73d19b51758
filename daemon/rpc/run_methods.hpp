#pragma once
// Control-API methods of workflow runs (docs/adr/0023): workflow.run,
// workflow.retry, workflow.stop, workflow.runStatus, workflow.runReport,
// workflow.landed, workflow.budget, task.diff.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/paging.hpp"
#include "daemon/rpc/planning_methods.hpp"
#include "daemon/runs/run_options.hpp"

namespace mission::daemon {

struct WorkflowRunRequest {
  std::string id;
  nlohmann::json options;  // decoded by runs::options_from_json, which names a bad field
};
void from_json(const nlohmann::json& j, WorkflowRunRequest& request);

struct WorkflowStopRequest {
  std::string id;
};
void from_json(const nlohmann::json& j, WorkflowStopRequest& request);

struct WorkflowRunStatusRequest {
  std::string id;
  std::optional<std::string> run_id;
};
void from_json(const nlohmann::json& j, WorkflowRunStatusRequest& request);

struct WorkflowRunReportRequest {
  std::string id;
  std::optional<std::string> run_id;
  ListParams page;
};
void from_json(const nlohmann::json& j, WorkflowRunReportRequest& request);

struct WorkflowLandedRequest {
  std::string id;
  std::string run_id;
  std::string into;
  std::string commit;
  std::string how;
};
void from_json(const nlohmann::json& j, WorkflowLandedRequest& request);

struct WorkflowBudgetRequest {
  std::string id;
  runs::BudgetChange change;
};
void from_json(const nlohmann::json& j, WorkflowBudgetRequest& request);

struct TaskApprovalRequest {
  std::string task_id;
  std::string person;
  std::optional<std::string> reason;  // task.reject
};
void from_json(const nlohmann::json& j, TaskApprovalRequest& request);

nlohmann::json handle_workflow_run(MethodContext& context, const WorkflowRunRequest& request);
struct TaskDiffRequest {
  std::string id;
  std::string task;
  std::size_t max_bytes = 0;
};
void from_json(const nlohmann::json& j, TaskDiffRequest& request);
// task.diff: what a task's work in the last run changed (the board's diff).
nlohmann::json handle_task_diff(MethodContext& context, const TaskDiffRequest& request);

// The last run's options again, on what failed (or the task named): what a
// person who cannot type `mission workflows run` (the board) retries with.
nlohmann::json handle_workflow_retry(MethodContext& context, const WorkflowResetRequest& request);
nlohmann::json handle_workflow_stop(MethodContext& context, const WorkflowStopRequest& request);
nlohmann::json handle_task_approve(MethodContext& context, const TaskApprovalRequest& request);
// A new token or cost budget for one task of the live run, or for the run
// (docs/adr/0049): stored, and the tasks it held go on. {run}.
nlohmann::json handle_workflow_budget(MethodContext& context, const WorkflowBudgetRequest& request);
nlohmann::json handle_task_reject(MethodContext& context, const TaskApprovalRequest& request);
nlohmann::json handle_workflow_run_status(MethodContext& context,
                                          const WorkflowRunStatusRequest& request);
// The run (summary and totals) and one page of its tasks with every
// attempt, positions being plan order from 1 (docs/adr/0026).
nlohmann::json handle_workflow_run_report(MethodContext& context,
                                          const WorkflowRunReportRequest& request);
// Records where a person landed a run (git did the landing, in the CLI):
// the run as workflow.runStatus answers it, with `landed`.
nlohmann::json handle_workflow_landed(MethodContext& context, const WorkflowLandedRequest& request);

}  // namespace mission::daemon
