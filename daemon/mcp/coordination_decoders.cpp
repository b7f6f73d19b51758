#include "daemon/mcp/coordination_decoders.hpp"

#include <algorithm>

#include "daemon/mcp/tracking_decoders.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::coordination {
namespace {

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

template <class Enum>
std::optional<Enum> name(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<Enum>();
}

// A list of vocabulary names; one outside it is invalid_argument naming
// the field and the names it takes (some schemas leave the enum out to
// keep the catalog small).
template <class Enum>
std::vector<Enum> names(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  std::vector<Enum> out;
  for (const auto& item : j.at(key)) {
    auto value = item.is_string() ? parse_name<Enum>(item.get<std::string>()) : std::nullopt;
    if (!value) {
      throw MissionError(ErrorCode::invalid_argument,
                         std::string(key) + " " + item.dump() + " is not one mission knows",
                         "use " + names_list<Enum>(), {{"field", key}});
    }
    out.push_back(*value);
  }
  return out;
}

// A document the agent gave, kept as its JSON text.
std::optional<std::string> document(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// cursor / after_cursor (strings a tool gave) and limit, for a list.
store::PageRequest page_of(const nlohmann::json& j, std::size_t default_limit) {
  if (j.contains("cursor") && j.contains("after_cursor")) {
    throw MissionError(ErrorCode::mixed_pagination, "cursor and after_cursor were both given",
                       "pass cursor (next_cursor of an answer) for older items, or after_cursor "
                       "for only newer ones");
  }
  store::PageRequest page;
  if (auto cursor = text(j, "cursor")) page.cursor = tracking::parse_position(*cursor, "cursor");
  if (auto after = text(j, "after_cursor"))
    page.after = tracking::parse_position(*after, "after_cursor");
  page.limit = std::clamp<std::size_t>(j.value("limit", default_limit), 1, limits::kMaxPageItems);
  return page;
}

MessageContent content_of(const nlohmann::json& j) {
  MessageContent content;
  content.type = j.at("message_type").get<MessageType>();
  content.subject = text(j, "subject");
  content.body = j.at("body").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  content.priority = name<MessagePriority>(j, "priority").value_or(MessagePriority::normal);
  content.workflow_id = text(j, "workflow_id");
  content.task_id = text(j, "task_id");
  if (auto expires = text(j, "expires_at"))
    content.expires_at = tracking::parse_time_field(*expires, "expires_at");
  return content;
}

}  // namespace

void from_json(const nlohmann::json& j, AgentRegisterRequest& request) {
  request.name = j.at("name").get<std::string>();
  request.runtime = j.at("runtime").get<std::string>();
  request.role = name<AgentRole>(j, "role").value_or(AgentRole::worker);
  if (j.contains("capabilities"))
    request.capabilities = j.at("capabilities").get<std::vector<std::string>>();
  request.workspace_path = text(j, "workspace_path");
  request.metadata = document(j, "metadata");
}

void from_json(const nlohmann::json& j, AgentHeartbeatRequest& request) {
  request.agent_id = text(j, "agent_id");
  request.current_task_id = text(j, "current_task_id");
  request.status = name<AgentStatus>(j, "status");
}

void from_json(const nlohmann::json& j, AgentUpdateRequest& request) {
  request.id = text(j, "id");
  request.status = name<AgentStatus>(j, "status");
  if (j.contains("current_task_id")) request.current_task_id = text(j, "current_task_id");
  request.workspace_path = text(j, "workspace_path");
  request.metadata = document(j, "metadata");
}

void from_json(const nlohmann::json& j, AgentIdRequest& request) {
  request.id = text(j, "id");
}

void from_json(const nlohmann::json& j, AgentListRequest& request) {
  request.status = names<AgentStatus>(j, "status");
  request.role = name<AgentRole>(j, "role");
  request.runtime = text(j, "runtime");
  request.page = page_of(j, limits::kMaxPageItems);
}

void from_json(const nlohmann::json& j, MessageSendRequest& request) {
  request.sender_id = text(j, "sender_id");
  request.recipient_id = j.at("recipient_id").get<std::string>();
  request.content = content_of(j);
  request.reply_to_id = text(j, "reply_to_id");
}

void from_json(const nlohmann::json& j, MessageBroadcastRequest& request) {
  request.sender_id = text(j, "sender_id");
  if (j.contains("recipient_filter")) {
    // Checked here rather than published in the schema: the catalog stays small.
    const nlohmann::json& filter = j.at("recipient_filter");
    for (const auto& [key, value] : filter.items()) {
      const bool known =
          (key == "role" && value.is_string() && parse_name<AgentRole>(value.get<std::string>())) ||
          (key == "status" && value.is_string() && (value == "online" || value == "busy")) ||
          (key == "runtime" && value.is_string() && !value.get<std::string>().empty());
      if (!known) {
        throw MissionError(
            ErrorCode::invalid_argument,
            "recipient_filter." + key + " " + value.dump() + " is not a filter mission knows",
            "filter on role (coordinator or worker), status (online or busy) or runtime",
            {{"field", "recipient_filter." + key}});
      }
    }
    request.role = name<AgentRole>(filter, "role");
    request.status = name<AgentStatus>(filter, "status");
    request.runtime = text(filter, "runtime");
  }
  request.content = content_of(j);
}

void from_json(const nlohmann::json& j, MessageListRequest& request) {
  request.agent_id = text(j, "agent_id");
  request.status = j.value("status", "unread");
  request.types = names<MessageType>(j, "message_type");
  request.priorities = names<MessagePriority>(j, "priority");
  request.workflow_id = text(j, "workflow_id");
  request.thread_id = text(j, "thread_id");
  if (j.contains("since") && j.at("since").is_number()) {
    // The seed's Unix timestamp is in seconds; a value no second count
    // reaches for millennia is taken as milliseconds (Date.now()).
    const double since = j.at("since").get<double>();
    request.since_ms = static_cast<std::int64_t>(since >= 1e11 ? since : since * 1000.0);
  } else if (auto since = text(j, "since")) {
    request.since_ms = tracking::parse_time_field(*since, "since");
  }
  request.page = page_of(j, limits::kDefaultMessageListLimit);
}

void from_json(const nlohmann::json& j, MessageGetRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.mark_read = j.value("mark_read", true);
}

void from_json(const nlohmann::json& j, MessageIdsRequest& request) {
  request.message_ids = j.at("message_ids").get<std::vector<std::string>>();
}

void from_json(const nlohmann::json& j, MessageCountRequest& request) {
  request.agent_id = text(j, "agent_id");
  request.priorities = names<MessagePriority>(j, "priority");
}

void from_json(const nlohmann::json& j, MessageWaitRequest& request) {
  if (auto after = text(j, "after_cursor"))
    request.after = tracking::parse_position(*after, "after_cursor");
  request.timeout_ms = j.value("timeout_ms", std::int64_t{0});
}

void from_json(const nlohmann::json& j, TaskClaimRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.agent_id = text(j, "agent_id");
}

void from_json(const nlohmann::json& j, TaskReleaseRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.agent_id = text(j, "agent_id");
  request.reason = text(j, "reason");
}

void from_json(const nlohmann::json& j, TaskAvailableRequest& request) {
  request.workflow_id = text(j, "workflow_id");
  request.agent_id = text(j, "agent_id");
  if (auto cursor = text(j, "cursor")) request.after = tracking::parse_position(*cursor, "cursor");
  request.limit = j.value("limit", std::size_t{0});
}

}  // namespace mission::daemon::coordination
