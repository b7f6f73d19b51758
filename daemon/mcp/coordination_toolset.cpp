// The coordination toolset (opt-in, ADR 17): seed 003's agent and messaging
// tools, bound to the calling execution, and message_wait. This file
// decodes nothing itself (coordination_decoders.cpp does) and lists the rows.

#include "daemon/coordination/coordination.hpp"
#include "daemon/mcp/coordination_decoders.hpp"
#include "daemon/mcp/tool_table.hpp"

namespace mission::daemon::mcp {
namespace {

template <class Request, nlohmann::json (*Function)(coordination::Caller&, const Request&)>
nlohmann::json as_caller(ToolContext& context, const Request& request) {
  coordination::Caller caller{context.db, context.execution_id, context.events};
  return Function(caller, request);
}

nlohmann::json agent_list(ToolContext& context, const coordination::AgentListRequest& request) {
  return coordination::agent_list(context.db, request);
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
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
