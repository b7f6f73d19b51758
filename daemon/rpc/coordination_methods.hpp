#pragma once
// Control-API methods for people taking part (ADR 17): inbox.list,
// message.send, execution.answer and agent.list, behind `mission inbox`,
// `send`, `answer` and `agents`. Answers are camelCase.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/paging.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon {

struct InboxListRequest {
  bool all = false;  // read messages too
  ListParams page;
};
void from_json(const nlohmann::json& j, InboxListRequest& request);

struct MessageSendMethodRequest {
  std::string id;  // the recipient execution
  std::string text;
  std::string from;  // the person's name
  MessagePriority priority = MessagePriority::normal;
  std::optional<std::string> subject;
  bool enter = true;  // Enter after the text typed into the agent
};
void from_json(const nlohmann::json& j, MessageSendMethodRequest& request);

struct ExecutionAnswerRequest {
  std::string id;
  std::string text;
  std::optional<std::int64_t> choice;  // 1-based
  std::string from;
  bool enter = true;  // Enter after the text typed into the agent
};
void from_json(const nlohmann::json& j, ExecutionAnswerRequest& request);

struct AgentListMethodRequest {
  std::vector<AgentStatus> status;
  ListParams page;
};
void from_json(const nlohmann::json& j, AgentListMethodRequest& request);

nlohmann::json handle_inbox_list(MethodContext& context, const InboxListRequest& request);
nlohmann::json handle_message_send(MethodContext& context, const MessageSendMethodRequest& request);
nlohmann::json handle_execution_answer(MethodContext& context,
                                       const ExecutionAnswerRequest& request);
nlohmann::json handle_agent_list(MethodContext& context, const AgentListMethodRequest& request);

}  // namespace mission::daemon
