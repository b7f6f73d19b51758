#include "daemon/rpc/coordination_methods.hpp"

#include "daemon/coordination/coordination.hpp"
#include "daemon/store/message_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

constexpr auto kCamel = coordination::KeyStyle::camel;

// A person who does not say who they are is "person".
std::string person_named(const std::string& from) {
  return from.empty() ? std::string(coordination::kPersonAddress) : from;
}

}  // namespace

void from_json(const nlohmann::json& j, InboxListRequest& request) {
  request.all = j.value("all", false);
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, MessageSendMethodRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.text = j.at("text").get<std::string>();
  request.from = j.value("from", "");
  if (j.contains("priority")) request.priority = j.at("priority").get<MessagePriority>();
  if (j.contains("subject")) request.subject = j.at("subject").get<std::string>();
  request.enter = j.value("enter", true);
}

void from_json(const nlohmann::json& j, ExecutionAnswerRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.text = j.value("text", "");
  if (j.contains("choice")) request.choice = j.at("choice").get<std::int64_t>();
  request.from = j.value("from", "");
  request.enter = j.value("enter", true);
  if (request.choice && !request.text.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "an answer is a text or a choice, not both",
                       "give TEXT, or --choice N for the question's Nth choice");
  }
}

void from_json(const nlohmann::json& j, AgentListMethodRequest& request) {
  if (j.contains("status")) request.status = j.at("status").get<std::vector<AgentStatus>>();
  request.page = decode_list_params(j);
}

nlohmann::json handle_inbox_list(MethodContext& context, const InboxListRequest& request) {
  store::Database& db = context.services.db;
  store::PageRequest wanted = page_request(request.page, limits::kDefaultMessageListLimit);
  store::MessageFilter filter;
  filter.recipient = std::nullopt;  // the people's inbox
  filter.state = request.all ? store::MessageState::all : store::MessageState::unread;
  filter.now = unix_ms_now();
  auto page = store::MessageRepository(db).page(filter, wanted);
  nlohmann::json items = nlohmann::json::array();
  for (const auto& row : page.rows)
    items.push_back(coordination::message_json(row, filter.now, kCamel));
  nlohmann::json out = {{"questions", coordination::open_questions(db)}};
  put_page(out, "messages", std::move(items), page.positions, page.more, wanted);
  return out;
}

nlohmann::json handle_message_send(MethodContext& context,
                                   const MessageSendMethodRequest& request) {
  coordination::PersonMessage message{person_named(request.from), request.id,      request.text,
                                      request.priority,           request.subject, request.enter};
  return coordination::person_send(context.services.db, context.events, message,
                                   &context.services.launcher);
}

nlohmann::json handle_execution_answer(MethodContext& context,
                                       const ExecutionAnswerRequest& request) {
  coordination::PersonMessage message{person_named(request.from), request.id,   request.text,
                                      MessagePriority::high,      std::nullopt, request.enter};
  return coordination::person_answer(context.services.db, context.events, message, request.choice,
                                     &context.services.launcher);
}

nlohmann::json handle_agent_list(MethodContext& context, const AgentListMethodRequest& request) {
  coordination::AgentListRequest list;
  list.status = request.status;
  list.page = page_request(request.page, limits::kMaxPageItems);
  const std::int64_t now = unix_ms_now();
  auto page = coordination::agent_page(context.services.db, list, now);
  nlohmann::json items = nlohmann::json::array();
  for (const auto& row : page.rows) items.push_back(coordination::agent_json(row, now, kCamel));
  nlohmann::json out = nlohmann::json::object();
  put_page(out, "agents", std::move(items), page.positions, page.more, list.page);
  return out;
}

}  // namespace mission::daemon
