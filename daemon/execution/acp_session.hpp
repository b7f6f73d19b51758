#pragma once
// The client side of one Agent Client Protocol session (JSON-RPC 2.0 over
// the agent's stdio, protocol version 1): initialize, session/new in the
// execution's cwd with mission's MCP bridge in mcpServers, session/prompt
// with the task, then the agent's session/update notifications and
// session/request_permission requests as they come. Between turns the
// session stays open: a follow-up prompt starts the next turn, or waits in
// its queue while a turn runs. No I/O of its own: the
// runner feeds it the agent's stdout and writes what it sends to the
// agent's stdin; what it learns goes to its Listener.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/acp_reader.hpp"
#include "shared/agent_usage.hpp"
#include "shared/permission_policy.hpp"

namespace mission::daemon::execution {

// A session/request_permission the agent waits on.
struct AcpPermission {
  nlohmann::json request_id;
  std::string title;  // its tool call's title, as the agent wrote it
  std::string kind;   // its tool call's kind (execute, edit, ...), may be empty
  std::vector<std::string> option_ids;
  std::vector<std::string> option_names;  // shown, in the agent's order
  std::vector<std::string> option_kinds;  // allow_once, reject_once, ... (may be empty)
  PermissionSubject subject;              // what a policy's rule is matched against
};

class AcpSession {
 public:
  struct Listener {
    virtual ~Listener() = default;
    // A JSON line to keep in the execution's log as its output: each
    // message the agent wrote, its message chunks coalesced.
    virtual void on_log_line(const std::string& line) = 0;
    // A fact to record as an observation: kind agent_message, tool_call,
    // tool_call_update or plan, with its fields as the agent gave them.
    virtual void on_update(std::string_view kind, const nlohmann::json& payload) = 0;
    // The first open permission request changed: a new one, or none
    // (nullptr) after an answer or the turn's end.
    virtual void on_permission(const AcpPermission* open) = 0;
    // The run's policy answered `request` itself with its option `choice`
    // (1-based) by `decision`'s rule; the request never opened.
    virtual void on_policy_answer(const AcpPermission& request, const PermissionDecision& decision,
                                  std::size_t choice) = 0;
    // A session/prompt was sent: a turn runs.
    virtual void on_turn_start() = 0;
    // The prompt's turn ended with `stop_reason` (end_turn, cancelled,
    // refusal, max_tokens, max_turn_requests); `last_message` is the text
    // of the turn's last agent message (its last kMaxAcpMessageBytes), or
    // empty. The session is open between turns until the process ends.
    virtual void on_turn_end(const std::string& stop_reason, const std::string& last_message) = 0;
    // The tokens and cost the agent stated changed: `total` is the
    // session's so far (shared/agent_usage.hpp, take_acp_*).
    virtual void on_usage(const AgentUsage& total) = 0;
    // The session cannot go on: an error answered to one of its requests.
    virtual void on_failure(const std::string& reason) = 0;
    // A line or message refused or ignored, for a diagnostic observation.
    virtual void on_diagnostic(const std::string& reason, const std::string& excerpt) = 0;
  };

  struct Start {
    std::string cwd;
    nlohmann::json mcp_servers = nlohmann::json::array();  // ACP McpServer entries
    std::string prompt;
    // Between turns the session waits for the next prompt (idle) instead
    // of ending with a turn that asked nothing (mission run --keep-open).
    bool keep_open = false;
    // Answers the requests its rules match (docs/adr/0053); the others wait
    // for a person.
    PermissionPolicy policy;
  };

  AcpSession(std::function<void(std::string line)> write, Listener& listener,
             std::size_t max_line_bytes);

  // Sends initialize; session/new and session/prompt follow its answers.
  void start(Start start);

  // The agent's stdout, in any chunks.
  void feed(std::string_view bytes);

  // Its stdout ended: coalesced text still held is flushed.
  void finish();

  // The permission request answered first, if any.
  const AcpPermission* open_permission() const {
    return permissions_.empty() ? nullptr : &permissions_.front();
  }

  // Answers the first open permission request with its option `choice`
  // (1-based). False when none is open or `choice` is not one of them.
  bool answer_permission(std::size_t choice);

  // session/cancel for the turn, if one runs.
  void cancel();

  // A follow-up prompt: sent as the next session/prompt when the session
  // is open between turns, else queued until the turn (or the session's
  // start) is over. False once the session has ended.
  bool prompt(std::string text);
  // Between turns: sends the first queued prompt; false when none waits.
  bool start_queued_turn();
  // Bytes of the prompts queued, not sent yet.
  std::size_t queued_bytes() const { return queued_bytes_; }

  bool turn_running() const { return phase_ == Phase::prompting; }
  bool between_turns() const { return phase_ == Phase::open; }

 private:
  // open: between turns, the next prompt may be sent.
  enum class Phase { idle, initializing, creating, prompting, open, ended };

  void handle(AcpMessage& message);
  void handle_response(const AcpMessage& message);
  void handle_update(const nlohmann::json& params);
  void handle_permission(const AcpMessage& message);
  // Answers `permission` by the policy when a rule matches and an option
  // of the matching kind is offered; false leaves it to a person.
  bool answer_by_policy(const AcpPermission& permission);
  void send_request(std::string_view method, nlohmann::json params);
  void send_prompt(const std::string& text);
  void send(const nlohmann::json& message);
  void flush_text();
  void end_turn(const std::string& stop_reason);
  void clear_permissions();
  void log(const nlohmann::json& message);

  std::function<void(std::string)> write_;
  Listener& listener_;
  AcpReader reader_;
  Phase phase_ = Phase::idle;
  Start start_;
  std::string session_id_;
  std::int64_t next_id_ = 0;
  std::int64_t awaited_id_ = -1;  // the id of our request in flight
  std::deque<AcpPermission> permissions_;
  std::string pending_text_;  // agent message chunks not flushed yet
  std::string last_message_;  // the turn's last agent message, flushed
  std::deque<std::string> queued_prompts_;
  std::size_t queued_bytes_ = 0;
  AgentUsage usage_;
};

}  // namespace mission::daemon::execution
