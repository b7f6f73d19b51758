#pragma once
// /mcp/<execution-id>: MCP over Streamable HTTP for one agent execution,
// with its token as `Authorization: Bearer` (docs/adr/0035). 2025-11-25
// sessions (initialize answers an Mcp-Session-Id; POST, GET for the server
// stream, DELETE) and 2026-07-28 requests without a session, which share
// one session per execution. Sessions no client uses end after
// limits::kHttpMcpSessionIdleMs.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "daemon/http/http_connection.hpp"
#include "daemon/http/http_mcp_session.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/mcp/session_services.hpp"

namespace mission::daemon::http {

class McpEndpoint {
 public:
  explicit McpEndpoint(mcp::SessionServices& services);
  ~McpEndpoint();

  // Answers `exchange`, whose path is /mcp/<execution_id>.
  void handle(const std::shared_ptr<HttpExchange>& exchange, const std::string& execution_id);

  // Ends every session (the daemon stops).
  void end_all();
  std::size_t session_count() const { return sessions_.size() + stateless_.size(); }

 private:
  void post(const std::shared_ptr<HttpExchange>& exchange, const std::string& execution_id,
            const std::string& token);
  // A new session for the execution, or a MissionError saying why not.
  std::unique_ptr<HttpMcpSession> open_session(const std::string& execution_id,
                                               const std::string& token, std::string key);
  // The session named by the request's Mcp-Session-Id, or nullptr after
  // answering 400 or 404.
  HttpMcpSession* named_session(const std::shared_ptr<HttpExchange>& exchange,
                                const std::string& execution_id, const std::string& token);
  void sweep();
  void schedule_sweep();

  mcp::SessionServices& services_;
  std::unordered_map<std::string, std::unique_ptr<HttpMcpSession>> sessions_;   // by Mcp-Session-Id
  std::unordered_map<std::string, std::unique_ptr<HttpMcpSession>> stateless_;  // by execution id
  loop::Timer sweep_timer_;
  bool sweep_scheduled_ = false;
};

}  // namespace mission::daemon::http
