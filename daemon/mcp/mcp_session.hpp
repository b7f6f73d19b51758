#pragma once
// One MCP session: a control connection after a successful mcp.attach. Speaks
// MCP JSON-RPC for one AgentExecution: the lifecycle (initialize, or the
// stateless revision's per-request _meta), ping, tools, logging, and a prompt
// error for everything else.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/events/event_bus.hpp"
#include "daemon/loop/connection.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/mcp/session_services.hpp"
#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "shared/framing.hpp"

namespace mission::daemon::mcp {

struct AttachedExecution {
  std::string execution_id;
  ExecutionKind kind;       // attached executions end with their session
  CatalogView view;         // the tools this session may list and call
  std::int64_t session_id;  // mcp_sessions.id
};

// Listens on the event bus only while a message_wait of it is pending.
class McpSession : public events::EventListener {
 public:
  McpSession(SessionServices& services, loop::Connection& connection, AttachedExecution attached);
  ~McpSession() override;
  McpSession(const McpSession&) = delete;
  McpSession& operator=(const McpSession&) = delete;

  // The pending wait's event type ("" when none), and the event itself.
  std::string_view listens_to() const override;
  void on_event(const nlohmann::json& event) override;

  void handle_frame(const Frame& frame);
  // The client sent its last request (EOF). The connection closes once
  // every deferred tool call has been answered: a client that sends
  // start_task and closes its stdin still gets the task's id.
  void on_client_done();
  // The connection is gone: record it and end an attached execution.
  void on_closed();

  // A parsed request, with what the lifecycle checks found.
  struct Request {
    const nlohmann::json* params;  // never null: an empty object when absent
    bool modern = false;           // carried 2026-07-28 _meta
  };

  // Method handlers (mcp_session.cpp's table) reach the session through these.
  nlohmann::json initialize(const Request& request);
  nlohmann::json list_tools(const Request& request);
  nlohmann::json call_tool(const Request& request);
  nlohmann::json set_log_level(const Request& request);
  nlohmann::json discover(const Request& request);
  void mark_initialized() { initialized_ = true; }

 private:
  nlohmann::json handle_message(const nlohmann::json& message);
  nlohmann::json handle_batch(const nlohmann::json& batch);
  void note_modern_client(const nlohmann::json& meta, std::string_view version);
  void write_reply(const nlohmann::json& response);
  // Runs a tool's deferred work in the thread pool and answers the current
  // request when it is done.
  void reply_later(DeferredWork deferred);
  // Parks the current request until wait_.work is ready or times out.
  void start_wait(WaitingWork work);
  // Answers the pending wait if it is ready (or `timed_out`); a wake-up
  // that finds nothing leaves it waiting.
  void finish_wait(bool timed_out);
  // The second text block of a tool result of an execution with unread
  // messages (ADR 17); writes, so it runs inside a transaction.
  void add_unread_notice(nlohmann::json& call_result);

  SessionServices& services_;
  loop::Connection& connection_;
  AttachedExecution attached_;
  bool initialize_answered_ = false;
  bool initialized_ = false;
  bool client_recorded_ = false;
  bool in_batch_ = false;
  // The request being handled, for a reply that comes later.
  nlohmann::json current_id_;
  bool current_modern_ = false;
  bool reply_deferred_ = false;
  // Deferred tool calls not yet answered, and whether the client is done.
  std::size_t deferred_in_flight_ = 0;
  bool client_done_ = false;
  // The message_wait being answered later, with its request's id.
  struct PendingWait {
    WaitingWork work;
    nlohmann::json id;
    bool modern = false;
  };
  std::optional<PendingWait> wait_;
  std::unique_ptr<loop::Timer> wait_timer_;
  // Whether this session has the message tools; without them the unread
  // notice carries the messages themselves.
  bool can_read_messages_ = false;
  // Expires with the session, so late replies know it is gone.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace mission::daemon::mcp
