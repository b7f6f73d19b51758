// The one table of control-API methods. A method exists when it is listed
// here with its params schema and how it uses the store; the dispatcher
// validates, decodes and opens the transaction before any handler.

#include "daemon/rpc/adapter_methods.hpp"
#include "daemon/rpc/coordination_methods.hpp"
#include "daemon/rpc/daemon_methods.hpp"
#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/event_methods.hpp"
#include "daemon/rpc/execution_methods.hpp"
#include "daemon/rpc/execution_run_methods.hpp"
#include "daemon/rpc/mcp_methods.hpp"
#include "daemon/rpc/mission_methods.hpp"
#include "daemon/rpc/planning_methods.hpp"
#include "daemon/rpc/run_methods.hpp"
#include "daemon/rpc/sandbox_methods.hpp"
#include "daemon/rpc/terminal_methods.hpp"
#include "daemon/rpc/usage_methods.hpp"
#include "daemon/rpc/workflow_plan_methods.hpp"
#include "daemon/rpc/workspace_methods.hpp"

namespace mission::daemon {

std::span<const MethodEntry> control_methods() {
  using enum Access;
  static const MethodEntry kMethods[] = {
      {"hello", "control/hello.params", "control/hello.result", true, read,
       typed<HelloRequest, handle_hello>},
      {"daemon.status", "control/empty.params", "control/daemon.status.result", false, read,
       typed<EmptyRequest, handle_daemon_status>},
      {"daemon.stop", "control/empty.params", "control/daemon.stop.result", false, read,
       typed<EmptyRequest, handle_daemon_stop>},
      // Starts a listener and keeps a sign-in token: nothing in the store.
      {"board.open", "control/empty.params", "control/board.open.result", false, read,
       typed<EmptyRequest, handle_board_open>},
      // Files go after the commit, so it manages its own transaction.
      {"daemon.gc", "control/daemon.gc.params", "control/daemon.gc.result", false, self,
       typed<GcRequest, handle_daemon_gc>},
      {"adapter.list", "control/empty.params", "control/adapter.list.result", false, read,
       typed<EmptyRequest, handle_adapter_list>},
      {"adapter.config", "control/adapter.config.params", "control/adapter.config.result", false,
       read, typed<AdapterConfigRequest, handle_adapter_config>},
      // Forks a short confined probe child and waits for it.
      {"sandbox.check", "control/sandbox.check.params", "control/sandbox.check.result", false, read,
       typed<SandboxCheckRequest, handle_sandbox_check>},
      {"execution.create", "control/execution.create.params", "control/execution.create.result",
       false, write, typed<ExecutionCreateRequest, handle_execution_create>},
      {"execution.list", "control/execution.list.params", "control/execution.list.result", false,
       read, typed<ExecutionListRequest, handle_execution_list>},
      {"execution.get", "control/execution.get.params", "control/execution.get.result", false, read,
       typed<ExecutionIdRequest, handle_execution_get>},
      {"execution.resolve", "control/execution.resolve.params", "control/execution.resolve.result",
       false, read, typed<ExecutionResolveRequest, handle_execution_resolve>},
      // The row commits before the process starts.
      {"execution.launch", "control/execution.launch.params", "control/execution.launch.result",
       false, self, typed<ExecutionLaunchRequest, handle_execution_launch>},
      {"execution.stop", "control/execution.stop.params", "control/execution.stop.result", false,
       self, typed<ExecutionStopRequest, handle_execution_stop>},
      {"execution.logs", "control/execution.logs.params", "control/execution.logs.result", false,
       read, typed<ExecutionLogsRequest, handle_execution_logs>},
      {"execution.observations", "control/execution.observations.params",
       "control/execution.observations.result", false, read,
       typed<ExecutionObservationsRequest, handle_execution_observations>},
      {"execution.instructions", "control/execution.instructions.params",
       "control/execution.instructions.result", false, read,
       typed<ExecutionIdRequest, handle_execution_instructions>},
      {"events.subscribe", "control/events.subscribe.params", "control/events.subscribe.result",
       false, read, typed<EventsSubscribeRequest, handle_events_subscribe>},
      {"mcp.attach", "control/mcp.attach.params", "control/mcp.attach.result", false, write,
       typed<McpAttachRequest, handle_mcp_attach>},
      {"terminal.attach", "control/terminal.attach.params", "control/terminal.attach.result", false,
       read, typed<TerminalAttachRequest, handle_terminal_attach>},
      {"terminal.input", "control/terminal.input.params", "control/terminal.input.result", false,
       read, typed<TerminalInputRequest, handle_terminal_input>},
      {"mission.list", "control/mission.list.params", "control/mission.list.result", false, read,
       typed<MissionListRequest, handle_mission_list>},
      {"mission.get", "control/mission.get.params", "control/mission.get.result", false, read,
       typed<MissionIdRequest, handle_mission_get>},
      {"mission.tasks", "control/mission.tasks.params", "control/mission.tasks.result", false, read,
       typed<MissionPageRequest, handle_mission_tasks>},
      {"mission.journal", "control/mission.journal.params", "control/mission.journal.result", false,
       read, typed<MissionPageRequest, handle_mission_journal>},
      {"mission.context", "control/mission.context.params", "control/mission.context.result", false,
       read, typed<MissionContextRequest, handle_mission_context>},
      {"mission.check", "control/mission.check.params", "control/mission.check.result", false, read,
       typed<MissionCheckRequest, handle_mission_check>},
      {"mission.export", "control/mission.export.params", "control/mission.export.result", false,
       read, typed<MissionExportRequest, handle_mission_export>},
      {"task.changes", "control/task.changes.params", "control/task.changes.result", false, read,
       typed<TaskChangesMethodRequest, handle_task_changes>},
      {"issue.resolve", "control/issue.resolve.params", "control/issue.resolve.result", false,
       write, typed<IssueResolveRequest, handle_issue_resolve>},
      {"inbox.list", "control/inbox.list.params", "control/inbox.list.result", false, read,
       typed<InboxListRequest, handle_inbox_list>},
      {"message.send", "control/message.send.params", "control/message.send.result", false, write,
       typed<MessageSendMethodRequest, handle_message_send>},
      {"execution.answer", "control/execution.answer.params", "control/execution.answer.result",
       false, write, typed<ExecutionAnswerRequest, handle_execution_answer>},
      {"agent.list", "control/agent.list.params", "control/agent.list.result", false, read,
       typed<AgentListMethodRequest, handle_agent_list>},
      // Git work in the thread pool; each answers when it is done.
      // A run's integration branch is made on a pool thread (deferred).
      {"workflow.run", "control/workflow.run.params", "control/workflow.run.result", false, read,
       typed<WorkflowRunRequest, handle_workflow_run>},
      // Resets what failed in its own transaction, then starts as
      // workflow.run does (deferred).
      {"workflow.retry", "control/workflow.retry.params", "control/workflow.retry.result", false,
       self, typed<WorkflowResetRequest, handle_workflow_retry>},
      // Stops processes and records their attempts itself.
      {"workflow.stop", "control/workflow.stop.params", "control/workflow.stop.result", false, self,
       typed<WorkflowStopRequest, handle_workflow_stop>},
      // Stores the budget and launches what it held; records itself.
      {"workflow.budget", "control/workflow.budget.params", "control/workflow.budget.result", false,
       self, typed<WorkflowBudgetRequest, handle_workflow_budget>},
      // A person's verdict on a task of a run with --approve; records itself.
      {"task.approve", "control/task.approve.params", "control/task.approve.result", false, self,
       typed<TaskApprovalRequest, handle_task_approve>},
      {"task.reject", "control/task.reject.params", "control/task.reject.result", false, self,
       typed<TaskApprovalRequest, handle_task_reject>},
      // Reads git on a pool thread (deferred).
      {"task.diff", "control/task.diff.params", "control/task.diff.result", false, read,
       typed<TaskDiffRequest, handle_task_diff>},
      {"workflow.runStatus", "control/workflow.run_status.params",
       "control/workflow.runStatus.result", false, read,
       typed<WorkflowRunStatusRequest, handle_workflow_run_status>},
      {"workflow.runReport", "control/workflow.run_report.params",
       "control/workflow.runReport.result", false, read,
       typed<WorkflowRunReportRequest, handle_workflow_run_report>},
      {"usage.list", "control/usage.list.params", "control/usage.list.result", false, read,
       typed<UsageListRequest, handle_usage_list>},
      {"workflow.landed", "control/workflow.landed.params", "control/workflow.landed.result", false,
       write, typed<WorkflowLandedRequest, handle_workflow_landed>},
      {"workspace.list", "control/workspace.list.params", "control/workspace.list.result", false,
       read, typed<WorkspaceListMethodRequest, handle_workspace_list>},
      {"workspace.conflicts", "control/workspace.conflicts.params",
       "control/workspace.conflicts.result", false, read,
       typed<WorkspaceScopeRequest, handle_workspace_conflicts>},
      {"workspace.liveConflicts", "control/workspace.live_conflicts.params",
       "control/workspace.liveConflicts.result", false, read,
       typed<WorkspaceScopeRequest, handle_workspace_live_conflicts>},
      {"workspace.clean", "control/workspace.clean.params", "control/workspace.clean.result", false,
       read, typed<WorkspaceScopeRequest, handle_workspace_clean>},
      {"workflow.list", "control/workflow.list.params", "control/workflow.list.result", false, read,
       typed<WorkflowListMethodRequest, handle_workflow_list>},
      {"workflow.resolve", "control/workflow.resolve.params", "control/workflow.resolve.result",
       false, read, typed<RecordResolveRequest, handle_workflow_resolve>},
      {"task.resolve", "control/task.resolve.params", "control/task.resolve.result", false, read,
       typed<RecordResolveRequest, handle_task_resolve>},
      {"workflow.get", "control/workflow.get.params", "control/workflow.get.result", false, read,
       typed<WorkflowMethodRequest, handle_workflow_get>},
      {"workflow.graph", "control/workflow.graph.params", "control/workflow.graph.result", false,
       read, typed<WorkflowGraphRequest, handle_workflow_graph>},
      {"workflow.next", "control/workflow.next.params", "control/workflow.next.result", false, read,
       typed<WorkflowMethodRequest, handle_workflow_next>},
      {"workflow.progress", "control/workflow.get.params", "control/workflow.progress.result",
       false, read, typed<WorkflowMethodRequest, handle_workflow_progress>},
      {"template.list", "control/template.list.params", "control/template.list.result", false, read,
       typed<TemplateListMethodRequest, handle_template_list>},
      {"template.get", "control/template.get.params", "control/template.get.result", false, read,
       typed<WorkflowMethodRequest, handle_template_get>},
      {"template.apply", "control/template.apply.params", "control/template.apply.result", false,
       write, typed<TemplateApplyMethodRequest, handle_template_apply>},
      {"workflow.create", "control/workflow.create.params", "control/workflow.create.result", false,
       write, typed<WorkflowCreateMethodRequest, handle_workflow_create>},
      {"workflow.delete", "control/workflow.delete.params", "control/workflow.delete.result", false,
       write, typed<WorkflowMethodRequest, handle_workflow_delete>},
      {"workflow.reset", "control/workflow.reset.params", "control/workflow.reset.result", false,
       write, typed<WorkflowResetRequest, handle_workflow_reset>},
      {"workflow.get_plan", "control/workflow.get_plan.params", "control/workflow.get_plan.result",
       false, read, typed<WorkflowMethodRequest, handle_workflow_get_plan>},
      {"workflow.set_plan", "control/workflow.set_plan.params", "control/workflow.set_plan.result",
       false, write, typed<WorkflowSetPlanMethodRequest, handle_workflow_set_plan>},
      // Makes the workflow, then launches its planner, each in its own transaction.
      {"workflow.plan", "control/workflow.plan.params", "control/workflow.plan.result", false, self,
       typed<WorkflowPlanRequest, handle_workflow_plan>},
  };
  return kMethods;
}

}  // namespace mission::daemon
