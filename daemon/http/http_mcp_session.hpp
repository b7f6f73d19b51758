#pragma once
// One MCP session over Streamable HTTP: the bridge's McpSession, whose
// replies go to the HTTP responses of the requests they answer. A reply
// ready while its POST is handled is the response's JSON body; one that
// comes later (a deferred tool, message_wait) goes to the exchange kept
// for its id: an SSE event when the client accepts a stream, else JSON.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "daemon/http/http_connection.hpp"
#include "daemon/mcp/mcp_session.hpp"
#include "shared/sha256.hpp"

namespace mission::daemon::http {

class HttpMcpSession {
 public:
  // `key` is the Mcp-Session-Id (empty for the stateless session of an
  // execution); `token` the digest every later request's token must match.
  HttpMcpSession(mcp::SessionServices& services, mcp::AttachedExecution attached, std::string key,
                 Sha256Digest token);
  ~HttpMcpSession();
  HttpMcpSession(const HttpMcpSession&) = delete;
  HttpMcpSession& operator=(const HttpMcpSession&) = delete;

  // Answers a POST whose body is `body`; `request_id` is the id of its one
  // request, or null when it holds none (only notifications or responses:
  // 202) or is a batch (answered at once, in one array).
  void post(const std::shared_ptr<HttpExchange>& exchange, const std::string& body,
            const nlohmann::json* request_id, bool is_batch);
  // GET: the stream of messages the server starts. mission starts none, so
  // it stays open, empty, until the session or the connection ends.
  void open_stream(const std::shared_ptr<HttpExchange>& exchange);
  // DELETE, idle expiry or shutdown: answers what is still owed with an
  // error, ends the stream and records the session's end.
  void end(const std::string& why);

  bool token_matches(std::string_view token) const;
  const mcp::AttachedExecution& attached() const { return session_->attached(); }
  const std::string& key() const { return key_; }
  // Whether a client is still waiting on it (a reply owed, a stream open).
  bool busy() const;
  std::int64_t last_used_ms() const { return last_used_ms_; }

 private:
  class Channel;
  void deliver(const std::shared_ptr<HttpExchange>& exchange, std::string line);
  Headers reply_headers() const;

  std::string key_;
  Sha256Digest token_;
  Channel* channel_;  // owned by session_
  std::unique_ptr<mcp::McpSession> session_;
  std::shared_ptr<HttpExchange> stream_;
  std::int64_t last_used_ms_ = 0;
  bool ended_ = false;
};

}  // namespace mission::daemon::http
