#pragma once
// Agents and messages (ADR 17): an agent is an execution, every agent tool
// is bound to the calling execution, and a message to an agent is the one
// inbound channel, whatever delivers it. Runs on the loop, inside the
// caller's transaction; events go into the caller's batch and are heard
// once it commits. Throws MissionError with a code and a hint.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/coordination/requests.hpp"
#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/store/agent_repository.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/message_repository.hpp"
#include "daemon/tracking/key_style.hpp"

namespace mission::daemon::coordination {

using tracking::KeyStyle;

// The live event of a new message: {type, agentExecutionId (the recipient,
// else the sender), recipientId, message}. message_wait and the inbound
// delivery listen for it.
inline constexpr std::string_view kMessageCreated = "message.created";
// In a message.created event, false when the text is typed without Enter.
inline constexpr const char* kPressEnterField = "pressEnter";

// Who calls: the execution behind an MCP session.
struct Caller {
  store::Database& db;
  std::string execution_id;
  events::EventBatch& events;
  // Planned workflows' DAGs (task_claim's prerequisite check); may be null.
  planning::PlanCache* plans = nullptr;
  // The processes messages are typed or written to, which refuse a message
  // their agent has no room for (Launcher::require_input_room); may be null.
  const execution::Launcher* launcher = nullptr;
};

// Agents.
nlohmann::json agent_register(Caller& caller, const AgentRegisterRequest& request);
nlohmann::json agent_heartbeat(Caller& caller, const AgentHeartbeatRequest& request);
nlohmann::json agent_update(Caller& caller, const AgentUpdateRequest& request);
nlohmann::json agent_get(Caller& caller, const AgentIdRequest& request);
nlohmann::json agent_list(store::Database& db, const AgentListRequest& request);
// One page of registered agents (agent_list, `mission agents`).
store::Page<store::AgentRow> agent_page(store::Database& db, const AgentListRequest& request,
                                        std::int64_t now);
nlohmann::json agent_unregister(Caller& caller, const AgentIdRequest& request);

// online, busy or offline, as of `now` (see ADR 17 for liveness).
AgentStatus effective_status(const store::AgentRow& row, std::int64_t now);
nlohmann::json agent_json(const store::AgentRow& row, std::int64_t now, KeyStyle style);

// Claims as leases (docs/adr/0019). task_claim refuses already_claimed
// naming the holder; the claimer becomes the task's owner.
nlohmann::json task_claim(Caller& caller, const TaskClaimRequest& request);
nlohmann::json task_release(Caller& caller, const TaskReleaseRequest& request);
// Ready or failed planned tasks nobody holds whose required capabilities
// the caller registered, in plan order.
nlohmann::json task_get_available(store::Database& db, planning::PlanCache* cache,
                                  const std::string& execution_id,
                                  const TaskAvailableRequest& request);
// Ends the claims of agents mission did not launch that were silent for
// limits::kClaimLeaseMs as of `now`; returns how many. In a transaction.
std::size_t expire_claims(store::Database& db, events::EventBatch& events, std::int64_t now);
nlohmann::json claim_json(const store::ClaimRow& claim, KeyStyle style);

// Messages an agent sends and reads.
nlohmann::json message_send(Caller& caller, const MessageSendRequest& request);
nlohmann::json message_broadcast(Caller& caller, const MessageBroadcastRequest& request);
nlohmann::json message_list(Caller& caller, const MessageListRequest& request);
nlohmann::json message_get(Caller& caller, const MessageGetRequest& request);
nlohmann::json message_mark_read(Caller& caller, const MessageIdsRequest& request);
nlohmann::json message_archive(Caller& caller, const MessageIdsRequest& request);
nlohmann::json message_count_unread(Caller& caller, const MessageCountRequest& request);

// message_wait's answer when something is there: the caller's unread
// messages (or those past request.after), oldest first; nullopt when none.
std::optional<nlohmann::json> message_wait_ready(store::Database& db,
                                                 const std::string& execution_id,
                                                 const MessageWaitRequest& request);
// Its answer when the wait ran out.
nlohmann::json message_wait_timed_out(store::Database& db, const std::string& execution_id,
                                      const MessageWaitRequest& request);
// The bounded wait a request asks for, in milliseconds.
std::int64_t message_wait_ms(const MessageWaitRequest& request);

nlohmann::json message_json(const store::MessageRow& row, std::int64_t now, KeyStyle style);

// Puts `items` under `key` with an MCP tool's paging fields: next_cursor
// while older items remain, after_cursor for what is newer (strings, like
// every cursor a tool gives).
void put_tool_page(nlohmann::json& out, std::string_view key, nlohmann::json items,
                   const std::vector<std::int64_t>& positions, bool more,
                   const store::PageRequest& request);

// The text block every tool result of an execution with unread messages
// carries (nullopt when there are none). `can_read` says whether its
// session has the message tools; when not, the block carries the messages
// themselves and marks them read. Writes: call inside a transaction.
std::optional<std::string> unread_notice(store::Database& db, const std::string& execution_id,
                                         bool can_read);

// People at the shell (control API, camelCase).
struct PersonMessage {
  std::string person;        // login name
  std::string execution_id;  // the recipient
  std::string text;
  MessagePriority priority = MessagePriority::normal;
  std::optional<std::string> subject;
  // Typed into an agent on a terminal (or written to its stdin): Enter
  // after it, or the text alone for the person to go on with.
  bool press_enter = true;
};
// `mission send`: {message}.
nlohmann::json person_send(store::Database& db, events::EventBatch& events,
                           const PersonMessage& message, const execution::Launcher* launcher);
// A notice from the daemon itself to the people's inbox (`mission inbox`),
// from "mission": what a person must look at, such as a run's task whose
// merge conflicts. Inside the caller's transaction.
struct PeopleNotice {
  std::string subject;
  std::string text;
  std::optional<std::string> workflow_id;
  std::optional<std::string> task_id;
  MessagePriority priority = MessagePriority::high;
};
void notify_people(store::Database& db, events::EventBatch& events, const PeopleNotice& notice);
// `mission answer`: answers the execution's open needs_input (text, or the
// 1-based `choice` of its choices) with a message replying to that
// observation, and puts the execution back to running. {message, execution}.
nlohmann::json person_answer(store::Database& db, events::EventBatch& events, PersonMessage message,
                             std::optional<std::int64_t> choice,
                             const execution::Launcher* launcher);
// The questions executions wait on (`mission inbox`): [{agentExecutionId,
// agentName?, observationId, question, choices, askedAt}], oldest first.
nlohmann::json open_questions(store::Database& db);

// The text a line-based delivery (stdin, a terminal) writes for
// `message`: one line, no newline inside. A person's text is as given; any
// other sender's has its control characters made visible
// (text::inert_keys), so that it can type nothing but itself.
std::string inbound_line(const store::MessageRow& message);

}  // namespace mission::daemon::coordination
