// Messages between agents and people (ADR 17): one table, and the one
// inbound channel to an agent, whatever delivers it (message tools, the
// notice in the next tool result, stdin lines, keystrokes later).

#include <algorithm>

#include "daemon/coordination/coordination.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/display_text.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::coordination {
namespace {

std::string new_message_id() {
  return new_random_id("ms-", 12);
}

std::string recipient_id_of(const store::MessageRow& row) {
  return row.recipient_execution_id.value_or(std::string(kPersonAddress));
}

std::string sender_id_of(const store::MessageRow& row) {
  return row.sender_execution_id.value_or(std::string(kPersonAddress));
}

void put_time(nlohmann::json& out, KeyStyle style, const char* snake,
              std::optional<std::int64_t> ms) {
  if (ms) out[tracking::key(style, snake)] = format_utc_iso8601(*ms);
}

// `press_enter` false: the delivery to a launched agent types the text
// without the Enter after it (kPressEnterField, read by InboundDelivery).
void add_message_event(events::EventBatch& batch, const store::MessageRow& row, bool press_enter) {
  if (!batch.wanted(kMessageCreated)) return;
  const std::string owner = row.recipient_execution_id ? *row.recipient_execution_id
                                                       : row.sender_execution_id.value_or("");
  nlohmann::json event = {{"type", kMessageCreated},
                          {"agentExecutionId", owner},
                          {"recipientId", recipient_id_of(row)},
                          {"message", message_json(row, unix_ms_now(), KeyStyle::camel)}};
  if (!press_enter) event[kPressEnterField] = false;
  batch.add(std::move(event));
}

// Refuses `row` when it goes to an agent whose process does not read what
// is typed or written to it: past the bound it would be dropped after it was
// accepted, or kept in the daemon's memory for ever.
void require_room(const execution::Launcher* launcher, const store::MessageRow& row) {
  if (launcher == nullptr || !row.recipient_execution_id) return;
  launcher->require_input_room(*row.recipient_execution_id, inbound_line(row).size() + 1);
}

store::MessageRow store_message(store::Database& db, events::EventBatch& batch,
                                store::MessageRow row, bool press_enter = true) {
  row.position = store::MessageRepository(db).insert(row);
  add_message_event(batch, row, press_enter);
  return row;
}

void require_self(const Caller& caller, const std::optional<std::string>& given,
                  const char* field) {
  if (!given || *given == caller.execution_id) return;
  throw MissionError(ErrorCode::forbidden,
                     std::string(field) + " '" + *given + "' is not the calling agent (" +
                         caller.execution_id + "); an agent reads and sends only as itself",
                     std::string("leave ") + field +
                         " out: every message tool applies to the execution of this session",
                     {{"field", field}, {"agent_id", caller.execution_id}});
}

// The execution a message goes to, which must be there to read it; nullopt
// for the people's inbox.
std::optional<std::string> live_recipient(store::Database& db, const std::string& recipient_id) {
  if (recipient_id == kPersonAddress) return std::nullopt;
  auto execution = store::ExecutionRepository(db).find(recipient_id);
  if (!execution) {
    throw MissionError(ErrorCode::not_found, "no agent execution '" + recipient_id + "'",
                       "agent_list (mission agents, mission exec list) names them; \"person\" "
                       "reaches the people at the shell",
                       {{"recipient_id", recipient_id}});
  }
  if (is_final(execution->state)) {
    throw MissionError(ErrorCode::execution_final,
                       "agent execution " + recipient_id + " is " +
                           std::string(name_of(execution->state)) +
                           "; nobody would read the message",
                       "send it to a live agent (agent_list --status online) or to \"person\"",
                       {{"recipient_id", recipient_id}});
  }
  return recipient_id;
}

store::MessageRow require_message(store::Database& db, const std::string& id) {
  if (auto row = store::MessageRepository(db).find(id)) return *row;
  throw MissionError(ErrorCode::not_found, "no message " + id,
                     "message_list gives the ids of your messages", {{"id", id}});
}

// A message the caller sent or received.
store::MessageRow visible_message(Caller& caller, const std::string& id) {
  store::MessageRow row = require_message(caller.db, id);
  if (row.recipient_execution_id == caller.execution_id ||
      row.sender_execution_id == caller.execution_id) {
    return row;
  }
  throw MissionError(ErrorCode::forbidden, "message " + id + " is neither to nor from this agent",
                     "message_list shows the messages you may read", {{"id", id}});
}

// A message the caller received: only its recipient marks or archives it.
store::MessageRow received_message(Caller& caller, const std::string& id) {
  store::MessageRow row = require_message(caller.db, id);
  if (row.recipient_execution_id == caller.execution_id) return row;
  throw MissionError(
      ErrorCode::forbidden, "message " + id + " was not sent to this agent",
      "only its recipient marks a message read or archives it; message_list shows yours",
      {{"id", id}});
}

store::MessageRow from_content(const MessageContent& content) {
  store::MessageRow row;
  row.id = new_message_id();
  row.thread_id = row.id;
  row.type = content.type;
  row.subject = content.subject;
  row.body = content.body;
  row.priority = content.priority;
  row.workflow_id = content.workflow_id;
  row.task_id = content.task_id;
  row.created_at = unix_ms_now();
  row.expires_at = content.expires_at;
  if (row.expires_at && *row.expires_at <= row.created_at) {
    throw MissionError(ErrorCode::invalid_argument, "expires_at is already past",
                       "give a time in the future, or leave expires_at out",
                       {{"field", "expires_at"}});
  }
  return row;
}

// Who sent it, for a person or a model to read: "person alice", "agent
// reviewer (ae-...)".
std::string sender_label(store::Database& db, const store::MessageRow& row) {
  if (row.sender_person) return "person " + *row.sender_person;
  if (!row.sender_execution_id) return "a removed agent";
  auto agent = store::AgentRepository(db).find(*row.sender_execution_id);
  if (agent && agent->name) return "agent " + *agent->name + " (" + *row.sender_execution_id + ")";
  return "agent " + *row.sender_execution_id;
}

std::string body_text(const store::MessageRow& row) {
  nlohmann::json body = parse_json_or_discarded(row.body);
  if (body.is_string()) return body.get<std::string>();
  return row.body;
}

std::string clipped(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8
  return text.substr(0, cut) + "...";
}

nlohmann::json wait_answer(nlohmann::json messages, std::int64_t unread, std::int64_t after,
                           bool timed_out) {
  return {{"messages", std::move(messages)},
          {"unread_count", unread},
          {"after_cursor", std::to_string(after)},
          {"timed_out", timed_out}};
}

std::int64_t total(const std::map<std::string, std::int64_t>& counts) {
  std::int64_t sum = 0;
  for (const auto& [priority, count] : counts) sum += count;
  return sum;
}

}  // namespace

nlohmann::json message_json(const store::MessageRow& row, std::int64_t now, KeyStyle style) {
  auto key = [style](const char* snake) { return tracking::key(style, snake); };
  nlohmann::json body = parse_json_or_discarded(row.body);
  std::string status = "unread";
  if (row.archived_at) {
    status = "archived";
  } else if (row.read_at) {
    status = "read";
  } else if (row.expires_at && *row.expires_at <= now) {
    status = "expired";
  }
  nlohmann::json out = {{"id", row.id},
                        {key("thread_id"), row.thread_id},
                        {key("sender_id"), sender_id_of(row)},
                        {key("recipient_id"), recipient_id_of(row)},
                        {key("message_type"), row.type},
                        {"body", body.is_discarded() ? nlohmann::json(row.body) : body},
                        {"priority", row.priority},
                        {"status", status}};
  if (row.sender_person) out[key("sender_name")] = *row.sender_person;
  if (row.subject) out["subject"] = *row.subject;
  if (row.workflow_id) out[key("workflow_id")] = *row.workflow_id;
  if (row.task_id) out[key("task_id")] = *row.task_id;
  if (row.reply_to_id) out[key("reply_to_id")] = *row.reply_to_id;
  if (row.reply_to_observation_id)
    out[key("reply_to_observation_id")] = *row.reply_to_observation_id;
  put_time(out, style, "created_at", row.created_at);
  put_time(out, style, "expires_at", row.expires_at);
  put_time(out, style, "read_at", row.read_at);
  put_time(out, style, "archived_at", row.archived_at);
  return out;
}

void put_tool_page(nlohmann::json& out, std::string_view key, nlohmann::json items,
                   const std::vector<std::int64_t>& positions, bool more,
                   const store::PageRequest& request) {
  const bool forward = request.after.has_value();
  if (!forward && more && !positions.empty()) out["next_cursor"] = std::to_string(positions.back());
  if (forward) {
    out["after_cursor"] = std::to_string(positions.empty() ? *request.after : positions.back());
  } else if (!request.cursor) {
    out["after_cursor"] = std::to_string(positions.empty() ? 0 : positions.front());
  }
  out[std::string(key)] = std::move(items);
}

nlohmann::json message_send(Caller& caller, const MessageSendRequest& request) {
  require_self(caller, request.sender_id, "sender_id");
  store::MessageRow row = from_content(request.content);
  row.sender_execution_id = caller.execution_id;
  row.recipient_execution_id = live_recipient(caller.db, request.recipient_id);
  if (request.reply_to_id) {
    store::MessageRow parent = visible_message(caller, *request.reply_to_id);
    row.reply_to_id = parent.id;
    row.thread_id = parent.thread_id;
  }
  require_room(caller.launcher, row);
  row = store_message(caller.db, caller.events, std::move(row));
  return {{"id", row.id}, {"thread_id", row.thread_id}};
}

nlohmann::json message_broadcast(Caller& caller, const MessageBroadcastRequest& request) {
  require_self(caller, request.sender_id, "sender_id");
  const std::int64_t now = unix_ms_now();
  std::vector<store::MessageRow> rows;
  std::string thread;
  for (const auto& agent : store::AgentRepository(caller.db).registered_active()) {
    if (agent.execution_id == caller.execution_id) continue;
    const AgentStatus status = effective_status(agent, now);
    if (status == AgentStatus::offline) continue;
    if (request.status && status != *request.status) continue;
    if (request.role && agent.role != request.role) continue;
    if (request.runtime && agent.runtime != request.runtime) continue;
    store::MessageRow row = from_content(request.content);
    row.sender_execution_id = caller.execution_id;
    row.recipient_execution_id = agent.execution_id;
    if (thread.empty()) thread = row.id;  // one thread for the whole broadcast
    row.thread_id = thread;
    // All or none: one recipient that does not read refuses the broadcast.
    require_room(caller.launcher, row);
    rows.push_back(std::move(row));
  }
  nlohmann::json ids = nlohmann::json::array();
  for (auto& row : rows) ids.push_back(store_message(caller.db, caller.events, std::move(row)).id);
  return {{"sent_count", ids.size()}, {"message_ids", std::move(ids)}};
}

nlohmann::json message_list(Caller& caller, const MessageListRequest& request) {
  require_self(caller, request.agent_id, "agent_id");
  store::MessageFilter filter;
  filter.recipient = caller.execution_id;
  filter.state = request.status == "all"    ? store::MessageState::all
                 : request.status == "read" ? store::MessageState::read
                                            : store::MessageState::unread;
  filter.types = request.types;
  filter.priorities = request.priorities;
  filter.workflow_id = request.workflow_id;
  filter.thread_id = request.thread_id;
  filter.include_sent = request.thread_id.has_value();
  filter.since_ms = request.since_ms;
  filter.now = unix_ms_now();
  store::MessageRepository messages(caller.db);
  auto page = messages.page(filter, request.page);
  nlohmann::json items = nlohmann::json::array();
  for (const auto& row : page.rows) items.push_back(message_json(row, filter.now, KeyStyle::snake));
  nlohmann::json out = {
      {"unread_count", total(messages.count_unread(caller.execution_id, filter.now))}};
  put_tool_page(out, "messages", std::move(items), page.positions, page.more, request.page);
  return out;
}

nlohmann::json message_get(Caller& caller, const MessageGetRequest& request) {
  store::MessageRow row = visible_message(caller, request.id);
  const std::int64_t now = unix_ms_now();
  if (request.mark_read && row.recipient_execution_id == caller.execution_id && !row.read_at) {
    store::MessageRepository(caller.db).mark_read(row.id, now);
    row.read_at = now;
  }
  return message_json(row, now, KeyStyle::snake);
}

nlohmann::json message_mark_read(Caller& caller, const MessageIdsRequest& request) {
  const std::int64_t now = unix_ms_now();
  for (const auto& id : request.message_ids) {
    store::MessageRepository(caller.db).mark_read(received_message(caller, id).id, now);
  }
  return {{"success", true}, {"count", request.message_ids.size()}};
}

nlohmann::json message_archive(Caller& caller, const MessageIdsRequest& request) {
  const std::int64_t now = unix_ms_now();
  for (const auto& id : request.message_ids) {
    store::MessageRepository(caller.db).archive(received_message(caller, id).id, now);
  }
  return {{"success", true}, {"count", request.message_ids.size()}};
}

nlohmann::json message_count_unread(Caller& caller, const MessageCountRequest& request) {
  require_self(caller, request.agent_id, "agent_id");
  auto counts =
      store::MessageRepository(caller.db).count_unread(caller.execution_id, unix_ms_now());
  nlohmann::json by_priority = nlohmann::json::object();
  std::int64_t count = 0;
  for (const auto& [priority, n] : counts) {
    auto wanted = parse_name<MessagePriority>(priority);
    if (!request.priorities.empty() &&
        (!wanted || std::find(request.priorities.begin(), request.priorities.end(), *wanted) ==
                        request.priorities.end())) {
      continue;
    }
    by_priority[priority] = n;
    count += n;
  }
  return {{"count", count}, {"by_priority", std::move(by_priority)}};
}

std::int64_t message_wait_ms(const MessageWaitRequest& request) {
  if (request.timeout_ms <= 0) return limits::kMessageWaitDefaultMs;
  return std::min(request.timeout_ms, limits::kMessageWaitMaxMs);
}

std::optional<nlohmann::json> message_wait_ready(store::Database& db,
                                                 const std::string& execution_id,
                                                 const MessageWaitRequest& request) {
  const std::int64_t now = unix_ms_now();
  store::MessageRepository messages(db);
  std::vector<store::MessageRow> rows;
  if (request.after) {
    store::MessageFilter filter;
    filter.recipient = execution_id;
    filter.state = store::MessageState::all;
    filter.now = now;
    store::PageRequest page;
    page.after = request.after;
    page.limit = limits::kMaxWaitMessages;
    rows = messages.page(filter, page).rows;
  } else {
    rows = messages.unread(execution_id, now, limits::kMaxWaitMessages);
  }
  if (rows.empty()) return std::nullopt;
  nlohmann::json items = nlohmann::json::array();
  for (const auto& row : rows) items.push_back(message_json(row, now, KeyStyle::snake));
  return wait_answer(std::move(items), total(messages.count_unread(execution_id, now)),
                     rows.back().position, false);
}

nlohmann::json message_wait_timed_out(store::Database& db, const std::string& execution_id,
                                      const MessageWaitRequest& request) {
  store::MessageRepository messages(db);
  const std::int64_t after = request.after.value_or(messages.newest_position(execution_id));
  return wait_answer(nlohmann::json::array(),
                     total(messages.count_unread(execution_id, unix_ms_now())), after, true);
}

std::optional<std::string> unread_notice(store::Database& db, const std::string& execution_id,
                                         bool can_read) {
  const std::int64_t now = unix_ms_now();
  store::MessageRepository messages(db);
  const std::int64_t unread = total(messages.count_unread(execution_id, now));
  if (unread == 0) return std::nullopt;
  auto rows = messages.unread(execution_id, now, can_read ? 1 : limits::kMaxNoticeMessages);
  const store::MessageRow& first = rows.front();
  if (can_read) {
    return "mission: " + std::to_string(unread) + " unread message" + (unread == 1 ? "" : "s") +
           " for you; the oldest, from " + sender_label(db, first) + ": \"" +
           clipped(body_text(first), limits::kNoticeBodyChars) +
           "\". Read them with message_list (or wait with message_wait), then message_mark_read.";
  }
  // No message tools in this session: the notice is how it reads them.
  std::string text =
      "mission: " + std::string(unread == 1 ? "a message" : "messages") + " for you:";
  for (const auto& row : rows) {
    text += "\n- from " + sender_label(db, row);
    if (row.reply_to_observation_id) text += ", answering your question";
    text += ": " + clipped(body_text(row), limits::kNoticeBodyChars);
    messages.mark_read(row.id, now);
  }
  const std::int64_t left = unread - static_cast<std::int64_t>(rows.size());
  if (left > 0) text += "\n(" + std::to_string(left) + " more in your next tool results)";
  return text;
}

nlohmann::json person_send(store::Database& db, events::EventBatch& events,
                           const PersonMessage& message, const execution::Launcher* launcher) {
  store::MessageRow row;
  row.id = new_message_id();
  row.thread_id = row.id;
  row.sender_person = message.person;
  row.recipient_execution_id = live_recipient(db, message.execution_id);
  row.type = MessageType::notification;
  row.subject = message.subject;
  row.body = nlohmann::json(message.text).dump();
  row.priority = message.priority;
  row.created_at = unix_ms_now();
  require_room(launcher, row);
  row = store_message(db, events, std::move(row), message.press_enter);
  return {{"message", message_json(row, row.created_at, KeyStyle::camel)}};
}

void notify_people(store::Database& db, events::EventBatch& events, const PeopleNotice& notice) {
  store::MessageRow row;
  row.id = new_message_id();
  row.thread_id = row.id;
  row.sender_person = "mission";
  row.type = MessageType::notification;
  row.subject = notice.subject;
  row.body = nlohmann::json(notice.text).dump();
  row.priority = notice.priority;
  row.workflow_id = notice.workflow_id;
  row.task_id = notice.task_id;
  row.created_at = unix_ms_now();
  store_message(db, events, std::move(row));
}

nlohmann::json person_answer(store::Database& db, events::EventBatch& events, PersonMessage message,
                             std::optional<std::int64_t> choice,
                             const execution::Launcher* launcher) {
  store::ExecutionRepository executions(db);
  auto target = executions.find(message.execution_id);
  if (!target) {
    throw MissionError(ErrorCode::not_found, "no agent execution " + message.execution_id,
                       "mission inbox lists the questions agents wait on",
                       {{"id", message.execution_id}});
  }
  auto question = store::ObservationRepository(db).waiting_on(message.execution_id);
  if (target->state != ExecutionState::awaiting_input || !question ||
      question->kind != "needs_input") {
    throw MissionError(ErrorCode::invalid_argument,
                       "agent execution " + message.execution_id + " is " +
                           std::string(name_of(target->state)) + ", not waiting for an answer",
                       "mission send " + message.execution_id + " TEXT sends it a message instead",
                       {{"state", target->state}});
  }
  nlohmann::json payload = parse_json_or_discarded(question->payload);
  if (choice) {
    nlohmann::json choices = payload.is_object() && payload.contains("choices")
                                 ? payload.at("choices")
                                 : nlohmann::json::array();
    if (*choice < 1 || *choice > static_cast<std::int64_t>(choices.size())) {
      throw MissionError(ErrorCode::invalid_argument,
                         "choice " + std::to_string(*choice) + " is not one of the " +
                             std::to_string(choices.size()) + " the question offers",
                         choices.empty()
                             ? "this question has no choices: answer with TEXT"
                             : "give --choice between 1 and " + std::to_string(choices.size()),
                         {{"choices", choices}});
    }
    // The choice is the asking agent's text, not the person's: it is typed
    // as text, whatever it holds.
    message.text =
        text::inert_keys(choices.at(static_cast<std::size_t>(*choice - 1)).get<std::string>());
  }
  if (message.text.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "an answer needs a text or a choice",
                       "give the answer as TEXT, or --choice N for one of the question's choices");
  }
  store::MessageRow row;
  row.id = new_message_id();
  row.thread_id = row.id;
  row.sender_person = message.person;
  row.recipient_execution_id = message.execution_id;
  row.type = MessageType::response;
  row.subject =
      payload.is_object() && payload.contains("question") && payload.at("question").is_string()
          ? std::optional<std::string>("Re: " +
                                       clipped(payload.at("question").get<std::string>(), 200))
          : std::nullopt;
  row.body = nlohmann::json(message.text).dump();
  row.priority = MessagePriority::high;
  row.reply_to_observation_id = question->id;
  row.created_at = unix_ms_now();
  require_room(launcher, row);
  row = store_message(db, events, std::move(row), message.press_enter);
  target->state = ExecutionState::running;
  target->updated_at = row.created_at;
  executions.update(*target);
  execution::add_execution_event(events, db, execution::kExecutionUpdated, message.execution_id);
  return {{"message", message_json(row, row.created_at, KeyStyle::camel)},
          {"agentExecutionId", message.execution_id},
          {"state", ExecutionState::running}};
}

nlohmann::json open_questions(store::Database& db) {
  static constexpr ExecutionState kWaiting[] = {ExecutionState::awaiting_input};
  nlohmann::json out = nlohmann::json::array();
  for (const auto& execution : store::ExecutionRepository(db).list_in_states(kWaiting)) {
    auto question = store::ObservationRepository(db).waiting_on(execution.id);
    if (!question || question->kind != "needs_input") continue;
    nlohmann::json payload = parse_json_or_discarded(question->payload);
    if (!payload.is_object()) payload = nlohmann::json::object();
    nlohmann::json item = {{"agentExecutionId", execution.id},
                           {"observationId", question->id},
                           {"question", payload.value("question", "")},
                           {"choices", payload.value("choices", nlohmann::json::array())},
                           {"askedAt", format_utc_iso8601(question->created_at)}};
    auto agent = store::AgentRepository(db).find(execution.id);
    if (agent && agent->name) item["agentName"] = *agent->name;
    out.push_back(std::move(item));
  }
  return out;
}

std::string inbound_line(const store::MessageRow& message) {
  std::string line = body_text(message);
  // Only a person at the shell may type keys into an agent (a ^C on
  // purpose); another agent's text arrives as text: "status?\x1c" would
  // have been a SIGQUIT on a terminal (docs/adr/0014).
  if (!message.sender_person) return text::inert_keys(line);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\r', ' ');
  return line;
}

}  // namespace mission::daemon::coordination
