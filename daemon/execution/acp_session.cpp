#include "daemon/execution/acp_session.hpp"

#include <algorithm>

#include "shared/bounded_json.hpp"
#include "shared/json_member.hpp"
#include "shared/limits.hpp"
#include "shared/version.hpp"

namespace mission::daemon::execution {
namespace {

// The protocol version this client speaks.
constexpr int kProtocolVersion = 1;
// JSON-RPC's "method not found", for what mission does not offer.
constexpr int kMethodNotFound = -32601;

std::string string_at(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json& value = json_member(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::string dump(const nlohmann::json& value) {
  // An agent's strings may hold invalid UTF-8: kept as U+FFFD.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The fields of a tool call or its update that say what it is and where.
nlohmann::json tool_call_fields(const nlohmann::json& update) {
  nlohmann::json out = nlohmann::json::object();
  for (std::string_view key : {"toolCallId", "title", "kind", "status", "locations"}) {
    const nlohmann::json& value = json_member(update, key);
    if (!value.is_null()) out[std::string(key)] = value;
  }
  return out;
}

}  // namespace

AcpSession::AcpSession(std::function<void(std::string)> write, Listener& listener,
                       std::size_t max_line_bytes)
    : write_(std::move(write)), listener_(listener), reader_(max_line_bytes) {}

void AcpSession::start(Start start) {
  start_ = std::move(start);
  phase_ = Phase::initializing;
  // No fs and no terminal: the agent does its own I/O in its worktree,
  // under the daemon's confinement.
  send_request(
      "initialize",
      {{"protocolVersion", kProtocolVersion},
       {"clientCapabilities",
        {{"fs", {{"readTextFile", false}, {"writeTextFile", false}}}, {"terminal", false}}},
       {"clientInfo", {{"name", "mission"}, {"version", kVersion}}}});
}

void AcpSession::send_request(std::string_view method, nlohmann::json params) {
  awaited_id_ = ++next_id_;
  send(
      {{"jsonrpc", "2.0"}, {"id", awaited_id_}, {"method", method}, {"params", std::move(params)}});
}

void AcpSession::send(const nlohmann::json& message) {
  write_(dump(message) + "\n");
}

void AcpSession::log(const nlohmann::json& message) {
  listener_.on_log_line(dump(message));
}

void AcpSession::feed(std::string_view bytes) {
  for (AcpMessage& message : reader_.feed(bytes)) handle(message);
}

void AcpSession::finish() {
  flush_text();
}

void AcpSession::handle(AcpMessage& message) {
  switch (message.kind) {
    case AcpMessage::Kind::invalid:
      flush_text();
      listener_.on_diagnostic(message.reason, message.excerpt);
      return;
    case AcpMessage::Kind::response:
      flush_text();
      log({{"jsonrpc", "2.0"},
           {"id", message.id},
           {message.error.is_null() ? "result" : "error",
            message.error.is_null() ? message.result : message.error}});
      handle_response(message);
      return;
    case AcpMessage::Kind::notification:
      if (message.method == "session/update") {
        handle_update(message.params);
      } else {
        flush_text();
        log({{"jsonrpc", "2.0"}, {"method", message.method}, {"params", message.params}});
      }
      return;
    case AcpMessage::Kind::request:
      flush_text();
      log({{"jsonrpc", "2.0"},
           {"id", message.id},
           {"method", message.method},
           {"params", message.params}});
      if (message.method == "session/request_permission") {
        handle_permission(message);
        return;
      }
      send({{"jsonrpc", "2.0"},
            {"id", message.id},
            {"error",
             {{"code", kMethodNotFound},
              {"message", "mission's ACP client offers no " + message.method +
                              ": it declares no fs or terminal capability"}}}});
      return;
  }
}

void AcpSession::handle_response(const AcpMessage& message) {
  if (!message.id.is_number_integer() || message.id.get<std::int64_t>() != awaited_id_) {
    listener_.on_diagnostic("a response to no request of mission's (id " + dump(message.id) + ")",
                            valid_utf8_excerpt(dump(message.id), 200));
    return;
  }
  awaited_id_ = -1;
  if (!message.error.is_null()) {
    const std::string what = phase_ == Phase::initializing ? "initialize"
                             : phase_ == Phase::creating   ? "session/new"
                                                           : "session/prompt";
    const std::string text = string_at(message.error, "message");
    clear_permissions();
    phase_ = Phase::ended;
    listener_.on_failure("the agent answered " + what +
                         " with an error: " + (text.empty() ? dump(message.error) : text));
    return;
  }
  switch (phase_) {
    case Phase::initializing:
      phase_ = Phase::creating;
      send_request("session/new", {{"cwd", start_.cwd}, {"mcpServers", start_.mcp_servers}});
      return;
    case Phase::creating: {
      session_id_ = string_at(message.result, "sessionId");
      if (session_id_.empty()) {
        phase_ = Phase::ended;
        listener_.on_failure("the agent's answer to session/new names no sessionId");
        return;
      }
      send_prompt(start_.prompt);
      return;
    }
    case Phase::prompting: {
      if (take_acp_turn_usage(usage_, json_member(message.result, "usage"))) {
        listener_.on_usage(usage_);
      }
      std::string reason = string_at(message.result, "stopReason");
      end_turn(reason.empty() ? "end_turn" : reason);
      return;
    }
    case Phase::idle:
    case Phase::open:
    case Phase::ended:
      return;
  }
}

void AcpSession::send_prompt(const std::string& text) {
  phase_ = Phase::prompting;
  last_message_.clear();
  send_request("session/prompt",
               {{"sessionId", session_id_},
                {"prompt", nlohmann::json::array({{{"type", "text"}, {"text", text}}})}});
  listener_.on_turn_start();
}

bool AcpSession::prompt(std::string text) {
  if (phase_ == Phase::ended) return false;
  if (phase_ == Phase::open && queued_prompts_.empty()) {
    send_prompt(text);
    return true;
  }
  queued_bytes_ += text.size();
  queued_prompts_.push_back(std::move(text));
  return true;
}

bool AcpSession::start_queued_turn() {
  if (phase_ != Phase::open || queued_prompts_.empty()) return false;
  std::string text = std::move(queued_prompts_.front());
  queued_prompts_.pop_front();
  queued_bytes_ -= text.size();
  send_prompt(text);
  return true;
}

void AcpSession::end_turn(const std::string& stop_reason) {
  flush_text();
  // Open before the requests are cleared: their clearing is no sign that
  // the turn goes on.
  phase_ = Phase::open;
  clear_permissions();
  listener_.on_turn_end(stop_reason, last_message_);
}

void AcpSession::handle_update(const nlohmann::json& params) {
  const nlohmann::json& update = json_member(params, "update");
  const std::string kind = string_at(update, "sessionUpdate");
  if (kind == "agent_message_chunk") {
    const std::string text = string_at(json_member(update, "content"), "text");
    std::string_view rest = text;
    while (!rest.empty()) {
      if (pending_text_.size() >= limits::kMaxAcpMessageBytes) flush_text();
      const std::size_t room =
          std::min(limits::kMaxAcpMessageBytes - pending_text_.size(), rest.size());
      pending_text_.append(rest.substr(0, room));
      rest.remove_prefix(room);
    }
    return;
  }
  flush_text();
  log({{"jsonrpc", "2.0"}, {"method", "session/update"}, {"params", params}});
  if (kind == "usage_update") {
    if (take_acp_usage_update(usage_, update)) listener_.on_usage(usage_);
  } else if (kind == "tool_call" || kind == "tool_call_update") {
    listener_.on_update(kind, tool_call_fields(update));
  } else if (kind == "plan") {
    listener_.on_update(kind, {{"entries", json_member(update, "entries")}});
  }
  // Thoughts, commands offered, mode changes: in the log, not observations.
}

void AcpSession::flush_text() {
  if (pending_text_.empty()) return;
  std::string text = std::move(pending_text_);
  pending_text_.clear();
  last_message_ = text;
  log({{"jsonrpc", "2.0"},
       {"method", "session/update"},
       {"params",
        {{"sessionId", session_id_},
         {"update",
          {{"sessionUpdate", "agent_message_chunk"},
           {"content", {{"type", "text"}, {"text", text}}}}}}}});
  listener_.on_update("agent_message", {{"text", text}});
}

void AcpSession::handle_permission(const AcpMessage& message) {
  AcpPermission permission;
  permission.request_id = message.id;
  const nlohmann::json& tool_call = json_member(message.params, "toolCall");
  permission.title = string_at(tool_call, "title");
  permission.kind = string_at(tool_call, "kind");
  permission.subject = permission_subject(tool_call);
  const nlohmann::json& options = json_member(message.params, "options");
  if (options.is_array()) {
    for (const nlohmann::json& option : options) {
      std::string id = string_at(option, "optionId");
      if (id.empty()) continue;
      std::string name = string_at(option, "name");
      permission.option_names.push_back(name.empty() ? id : name);
      permission.option_kinds.push_back(string_at(option, "kind"));
      permission.option_ids.push_back(std::move(id));
    }
  }
  const bool refuse = permission.option_ids.empty() || phase_ != Phase::prompting ||
                      permissions_.size() >= limits::kMaxAcpOpenPermissions;
  if (refuse) {
    listener_.on_diagnostic(permission.option_ids.empty()
                                ? "a permission request with no options: answered cancelled"
                            : phase_ != Phase::prompting
                                ? "a permission request outside a turn: answered cancelled"
                                : "more than " + std::to_string(limits::kMaxAcpOpenPermissions) +
                                      " permission requests open at once: answered cancelled",
                            valid_utf8_excerpt(permission.title, 200));
    send({{"jsonrpc", "2.0"},
          {"id", message.id},
          {"result", {{"outcome", {{"outcome", "cancelled"}}}}}});
    return;
  }
  if (answer_by_policy(permission)) return;
  permissions_.push_back(std::move(permission));
  if (permissions_.size() == 1) listener_.on_permission(&permissions_.front());
}

bool AcpSession::answer_by_policy(const AcpPermission& permission) {
  if (start_.policy.empty()) return false;
  std::optional<PermissionDecision> decision = decide(start_.policy, permission.subject);
  if (!decision) return false;
  // Once, never always: an "always" answer would let the agent skip asking
  // next time, past a deny rule that would match then.
  const std::string_view wanted = decision->allow ? "allow_once" : "reject_once";
  const auto found =
      std::find(permission.option_kinds.begin(), permission.option_kinds.end(), wanted);
  if (found == permission.option_kinds.end()) {
    listener_.on_diagnostic("the permission policy's rule '" + decision->rule +
                                "' matched, but the request offers no " + std::string(wanted) +
                                " option: left to a person",
                            valid_utf8_excerpt(permission.title, 200));
    return false;
  }
  const auto index = static_cast<std::size_t>(found - permission.option_kinds.begin());
  send({{"jsonrpc", "2.0"},
        {"id", permission.request_id},
        {"result",
         {{"outcome", {{"outcome", "selected"}, {"optionId", permission.option_ids[index]}}}}}});
  listener_.on_policy_answer(permission, *decision, index + 1);
  return true;
}

bool AcpSession::answer_permission(std::size_t choice) {
  if (permissions_.empty()) return false;
  const AcpPermission& open = permissions_.front();
  if (choice < 1 || choice > open.option_ids.size()) return false;
  send({{"jsonrpc", "2.0"},
        {"id", open.request_id},
        {"result",
         {{"outcome", {{"outcome", "selected"}, {"optionId", open.option_ids[choice - 1]}}}}}});
  permissions_.pop_front();
  listener_.on_permission(permissions_.empty() ? nullptr : &permissions_.front());
  return true;
}

void AcpSession::clear_permissions() {
  if (permissions_.empty()) return;
  // The turn is over: what it asked is moot, and the agent hears so.
  for (const AcpPermission& open : permissions_) {
    send({{"jsonrpc", "2.0"},
          {"id", open.request_id},
          {"result", {{"outcome", {{"outcome", "cancelled"}}}}}});
  }
  permissions_.clear();
  listener_.on_permission(nullptr);
}

void AcpSession::cancel() {
  if (phase_ != Phase::prompting) return;
  send(
      {{"jsonrpc", "2.0"}, {"method", "session/cancel"}, {"params", {{"sessionId", session_id_}}}});
}

}  // namespace mission::daemon::execution
