// The coordination toolset (opt-in, ADR 17): seed 003's agent and messaging
// tools, bound to the calling execution, and message_wait. This file
// decodes nothing itself (coordination_decoders.cpp does) and lists the rows.

#include "daemon/coordination/coordination.hpp"
#include "daemon/mcp/coordination_decoders.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/workspaces/workspaces.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::mcp {
namespace {

template <class Request, nlohmann::json (*Function)(coordination::Caller&, const Request&)>
nlohmann::json as_caller(ToolContext& context, const Request& request) {
  coordination::Caller caller{context.db, context.execution_id, context.events, context.plans,
                              context.launcher};
  return Function(caller, request);
}

nlohmann::json agent_list(ToolContext& context, const coordination::AgentListRequest& request) {
  return coordination::agent_list(context.db, request);
}

// task_claim; in a workflow with auto_create_workspaces the claimed task
// also gets a worktree of its own, made in the thread pool, and the answer
// names it (docs/adr/0019).
ToolOutcome task_claim(ToolContext& context, const coordination::TaskClaimRequest& request) {
  coordination::Caller caller{context.db, context.execution_id, context.events, context.plans};
  nlohmann::json claimed = coordination::task_claim(caller, request);
  if (!workspaces::wants_workspace(context.db, request.task_id)) return claimed;
  workspaces::CreateRequest create;
  create.workflow_id = store::PlanRepository(context.db).task(request.task_id)->mission_id;
  create.task_ids = {request.task_id};
  auto plan = std::make_shared<workspaces::CreatePlan>(
      workspaces::plan_create(context.db, context.execution_id, create));
  auto made = std::make_shared<git::WorktreeCreated>();
  DeferredWork work;
  work.work = [plan, made] { *made = workspaces::run_create(*plan); };
  work.finish = [plan, made, claimed](ToolContext& finishing) {
    nlohmann::json out = claimed;
    out["workspace"] = workspaces::workspace_json(
        workspaces::record_create(finishing.db, *plan, *made, unix_ms_now()), KeyStyle::snake);
    return out;
  };
  return work;
}

nlohmann::json task_get_available(ToolContext& context,
                                  const coordination::TaskAvailableRequest& request) {
  return coordination::task_get_available(context.db, context.plans, context.execution_id, request);
}

ToolOutcome message_wait(ToolContext& context, const coordination::MessageWaitRequest& request) {
  WaitingWork work;
  work.event_type = coordination::kMessageCreated;
  work.timeout_ms = coordination::message_wait_ms(request);
  const std::string execution_id = context.execution_id;
  work.ready = [request, execution_id](ToolContext& waiting) {
    return coordination::message_wait_ready(waiting.db, execution_id, request);
  };
  work.timed_out = [request, execution_id](ToolContext& waiting) {
    return coordination::message_wait_timed_out(waiting.db, execution_id, request);
  };
  return work;
}

}  // namespace

std::span<const ToolRow> coordination_tools() {
  using namespace coordination;
  static constexpr ToolRow kTools[] = {
      {"agent_register", ToolMode::immediate, true,
       immediate<AgentRegisterRequest, as_caller<AgentRegisterRequest, agent_register>>},
      {"agent_heartbeat", ToolMode::immediate, true,
       immediate<AgentHeartbeatRequest, as_caller<AgentHeartbeatRequest, agent_heartbeat>>},
      {"agent_update", ToolMode::immediate, true,
       immediate<AgentUpdateRequest, as_caller<AgentUpdateRequest, agent_update>>},
      {"agent_get", ToolMode::immediate, false,
       immediate<AgentIdRequest, as_caller<AgentIdRequest, agent_get>>},
      {"agent_list", ToolMode::immediate, false, immediate<AgentListRequest, mcp::agent_list>},
      {"agent_unregister", ToolMode::immediate, true,
       immediate<AgentIdRequest, as_caller<AgentIdRequest, agent_unregister>>},
      {"message_send", ToolMode::immediate, true,
       immediate<MessageSendRequest, as_caller<MessageSendRequest, message_send>>},
      {"message_broadcast", ToolMode::immediate, true,
       immediate<MessageBroadcastRequest, as_caller<MessageBroadcastRequest, message_broadcast>>},
      {"message_list", ToolMode::immediate, false,
       immediate<MessageListRequest, as_caller<MessageListRequest, message_list>>},
      {"message_get", ToolMode::immediate, true,
       immediate<MessageGetRequest, as_caller<MessageGetRequest, message_get>>},
      {"message_mark_read", ToolMode::immediate, true,
       immediate<MessageIdsRequest, as_caller<MessageIdsRequest, message_mark_read>>},
      {"message_archive", ToolMode::immediate, true,
       immediate<MessageIdsRequest, as_caller<MessageIdsRequest, message_archive>>},
      {"message_count_unread", ToolMode::immediate, false,
       immediate<MessageCountRequest, as_caller<MessageCountRequest, message_count_unread>>},
      {"message_wait", ToolMode::waiting, false, waiting<MessageWaitRequest, mcp::message_wait>},
      {"task_claim", ToolMode::immediate, true, waiting<TaskClaimRequest, mcp::task_claim>},
      {"task_release", ToolMode::immediate, true,
       immediate<TaskReleaseRequest, as_caller<TaskReleaseRequest, task_release>>},
      {"task_get_available", ToolMode::immediate, false,
       immediate<TaskAvailableRequest, mcp::task_get_available>},
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
