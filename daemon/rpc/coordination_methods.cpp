#include "daemon/rpc/coordination_methods.hpp"

#include "daemon/coordination/coordination.hpp"
#include "daemon/coordination/permission_prompts.hpp"
#include "daemon/runs/run_budget.hpp"
#include "daemon/runs/run_service.hpp"
#include "daemon/store/agent_repository.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/inbox_repository.hpp"
#include "daemon/store/message_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon {
namespace {

constexpr auto kCamel = coordination::KeyStyle::camel;

// A person who does not say who they are is "person".
std::string person_named(const std::string& from) {
  return from.empty() ? std::string(coordination::kPersonAddress) : from;
}

nlohmann::json waiting_tasks_json(const std::vector<store::WaitingTask>& tasks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& task : tasks) {
    nlohmann::json item = {{"taskId", task.task_id},
                           {"taskName", task.task_name},
                           {"workflowId", task.workflow_id},
                           {"workflowName", task.workflow_name},
                           {"runId", task.run_id},
                           {"attempt", task.attempt},
                           {"since", format_utc_iso8601(task.since)}};
    if (task.execution_id) item["agentExecutionId"] = *task.execution_id;
    if (task.reason) item["reason"] = *task.reason;
    out.push_back(std::move(item));
  }
  return out;
}

// The executions that said they are blocked, each with its reason: a
// person unblocks them (mission send, mission answer).
nlohmann::json blocked_executions(store::Database& db) {
  static constexpr ExecutionState kBlocked[] = {ExecutionState::blocked};
  nlohmann::json out = nlohmann::json::array();
  for (const auto& execution : store::ExecutionRepository(db).list_in_states(kBlocked)) {
    if (out.size() >= store::kMaxInboxEntries) break;
    nlohmann::json item = {{"agentExecutionId", execution.id}};
    if (auto why = store::ObservationRepository(db).waiting_on(execution.id)) {
      nlohmann::json payload = parse_json_or_discarded(why->payload);
      if (payload.is_object()) item["reason"] = payload.value("reason", "");
      item["since"] = format_utc_iso8601(why->created_at);
    }
    auto agent = store::AgentRepository(db).find(execution.id);
    if (agent && agent->name) item["agentName"] = *agent->name;
    out.push_back(std::move(item));
  }
  return out;
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

namespace {

// What agents at work conflict over now (runs/live_conflicts.hpp): in the
// inbox until it clears, so it is never stale there.
nlohmann::json live_conflicts_json(MethodContext& context) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& conflict : context.services.runs.live_conflicts().current(std::nullopt)) {
    if (out.size() == store::kMaxInboxEntries) break;
    out.push_back(runs::LiveConflicts::to_json(conflict));
  }
  return out;
}

}  // namespace

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
  nlohmann::json out = {
      {"questions", coordination::open_questions(db)},
      {"approvals",
       waiting_tasks_json(store::InboxRepository(db).awaiting_approval(store::kMaxInboxEntries))},
      {"conflicts",
       waiting_tasks_json(store::InboxRepository(db).conflicted(store::kMaxInboxEntries))},
      {"budgets", runs::budget_waits(db)},
      {"liveConflicts", live_conflicts_json(context)},
      {"blocked", blocked_executions(db)},
      {"prompts", coordination::open_permission_prompts(db)}};
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
  // A permission menu on its terminal takes the option's key; a question
  // the agent asked (needs_input) takes a message.
  auto target = store::ExecutionRepository(context.services.db).find(request.id);
  execution::Launcher& launcher = context.services.launcher;
  if (target && coordination::answers_on_screen(launcher, request.id, target->adapter)) {
    auto prompt = launcher.permission_prompt(request.id);
    if (prompt && !request.choice) {
      throw MissionError(ErrorCode::invalid_argument,
                         "agent execution " + request.id +
                             " shows a permission prompt on its screen: it takes one of its " +
                             std::to_string(prompt->options.size()) + " options, not a text",
                         "mission inbox lists the options; answer with --choice N",
                         {{"options", prompt->options}});
    }
    if (request.choice && (prompt || target->state != ExecutionState::awaiting_input)) {
      return coordination::answer_permission_prompt(context.services.db, context.events, launcher,
                                                    request.id, target->adapter, *request.choice,
                                                    person_named(request.from));
    }
  }
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
