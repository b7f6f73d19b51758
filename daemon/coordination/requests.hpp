#pragma once
// The typed requests of the coordination tools (seed 003's agent and
// messaging tools, ADR 17), decoded once from validated arguments by
// daemon/mcp/coordination_decoders.cpp. Optional ids that seed 003 makes
// the agent repeat (agent_id, id, sender_id) are kept only to be checked
// against the caller.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::coordination {

struct AgentRegisterRequest {
  std::string name;
  std::string runtime;
  AgentRole role = AgentRole::worker;
  std::optional<std::vector<std::string>> capabilities;  // absent: kept as registered before
  std::optional<std::string> workspace_path;
  std::optional<std::string> metadata;  // JSON object text
};

struct AgentHeartbeatRequest {
  std::optional<std::string> agent_id;
  std::optional<std::string> current_task_id;
  std::optional<AgentStatus> status;
};

struct AgentUpdateRequest {
  std::optional<std::string> id;
  std::optional<AgentStatus> status;
  std::optional<std::optional<std::string>> current_task_id;  // null clears it
  std::optional<std::string> workspace_path;
  std::optional<std::string> metadata;
};

struct AgentIdRequest {
  std::optional<std::string> id;  // agent_get: any agent; agent_unregister: the caller
};

struct AgentListRequest {
  std::vector<AgentStatus> status;
  std::optional<AgentRole> role;
  std::optional<std::string> runtime;
  store::PageRequest page;
};

// The people's inbox, as a recipient or sender id.
inline constexpr std::string_view kPersonAddress = "person";

struct MessageContent {
  MessageType type = MessageType::notification;
  std::optional<std::string> subject;
  std::string body;  // a JSON value's text
  MessagePriority priority = MessagePriority::normal;
  std::optional<std::string> workflow_id;
  std::optional<std::string> task_id;
  std::optional<std::int64_t> expires_at;
};

struct MessageSendRequest {
  std::optional<std::string> sender_id;
  std::string recipient_id;  // an execution id, or "person"
  MessageContent content;
  std::optional<std::string> reply_to_id;
};

struct MessageBroadcastRequest {
  std::optional<std::string> sender_id;
  std::optional<AgentRole> role;
  std::optional<AgentStatus> status;
  std::optional<std::string> runtime;
  MessageContent content;
};

struct MessageListRequest {
  std::optional<std::string> agent_id;
  std::string status = "unread";  // unread, read or all
  std::vector<MessageType> types;
  std::vector<MessagePriority> priorities;
  std::optional<std::string> workflow_id;
  std::optional<std::string> thread_id;
  std::optional<std::int64_t> since_ms;
  store::PageRequest page;
};

struct MessageGetRequest {
  std::string id;
  bool mark_read = true;
};

struct MessageIdsRequest {
  std::vector<std::string> message_ids;
};

struct MessageCountRequest {
  std::optional<std::string> agent_id;
  std::vector<MessagePriority> priorities;
};

struct MessageWaitRequest {
  std::optional<std::int64_t> after;  // after_cursor: only messages past it
  std::int64_t timeout_ms = 0;        // 0: the default
};

// Claims (docs/adr/0019). agent_id, when given, must be the caller's.
struct TaskClaimRequest {
  std::string task_id;
  std::optional<std::string> agent_id;
};

struct TaskReleaseRequest {
  std::string task_id;
  std::optional<std::string> agent_id;
  std::optional<std::string> reason;
};

struct TaskAvailableRequest {
  std::optional<std::string> workflow_id;
  std::optional<std::string> agent_id;
  std::optional<std::int64_t> after;  // cursor: tasks past this position
  std::size_t limit = 0;              // 0: the default
};

}  // namespace mission::daemon::coordination
