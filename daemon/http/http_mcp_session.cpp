#include "daemon/http/http_mcp_session.hpp"

#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/session_token.hpp"

namespace mission::daemon::http {
namespace {

bool accepts_event_stream(const HttpRequest& request) {
  const std::string* accept = request.header("accept");
  return accept != nullptr && accept->find("text/event-stream") != std::string::npos;
}

}  // namespace

// Routes each reply to the exchange that waits for it.
class HttpMcpSession::Channel : public mcp::ReplyChannel {
 public:
  explicit Channel(HttpMcpSession& owner) : owner_(owner) {}

  void send(const nlohmann::json& id, std::string line) override {
    if (auto it = waiting.find(id.dump()); it != waiting.end()) {
      std::shared_ptr<HttpExchange> exchange = std::move(it->second);
      waiting.erase(it);
      owner_.deliver(exchange, std::move(line));
      return;
    }
    // The reply of the POST being handled; any other has no one waiting.
    if (handling) immediate = std::move(line);
  }
  // The HTTP session ends by DELETE or expiry, not when a client is done.
  void finish() override {}

  bool handling = false;
  std::optional<std::string> immediate;
  // Exchanges waiting for a reply that comes later, by the request's id.
  std::unordered_map<std::string, std::shared_ptr<HttpExchange>> waiting;

 private:
  HttpMcpSession& owner_;
};

HttpMcpSession::HttpMcpSession(mcp::SessionServices& services, mcp::AttachedExecution attached,
                               std::string key, Sha256Digest token)
    : key_(std::move(key)), token_(token), last_used_ms_(unix_ms_now()) {
  auto channel = std::make_unique<Channel>(*this);
  channel_ = channel.get();
  session_ = std::make_unique<mcp::McpSession>(services, std::move(channel), std::move(attached));
}

HttpMcpSession::~HttpMcpSession() {
  end("the daemon is stopping");
}

bool HttpMcpSession::token_matches(std::string_view token) const {
  return digest_matches(std::span(token_.data(), token_.size()), token_digest(token));
}

bool HttpMcpSession::busy() const {
  return !channel_->waiting.empty() || (stream_ && stream_->open()) || session_->owes_replies();
}

Headers HttpMcpSession::reply_headers() const {
  Headers headers;
  if (!key_.empty()) headers.emplace_back("Mcp-Session-Id", key_);
  return headers;
}

void HttpMcpSession::deliver(const std::shared_ptr<HttpExchange>& exchange, std::string line) {
  last_used_ms_ = unix_ms_now();
  if (exchange->streaming()) {
    exchange->send_event(line);
    exchange->end();
    return;
  }
  Headers headers = reply_headers();
  headers.emplace_back("Content-Type", "application/json");
  exchange->respond(200, headers, line);
}

void HttpMcpSession::post(const std::shared_ptr<HttpExchange>& exchange, const std::string& body,
                          const nlohmann::json* request_id, bool is_batch) {
  last_used_ms_ = unix_ms_now();
  channel_->handling = true;
  channel_->immediate.reset();
  try {
    session_->handle_frame(Frame{Frame::Kind::line, body, {}, {}});
  } catch (...) {
    channel_->handling = false;
    throw;
  }
  channel_->handling = false;
  if (channel_->immediate) {
    std::string line = std::move(*channel_->immediate);
    channel_->immediate.reset();
    deliver(exchange, std::move(line));
    return;
  }
  if (request_id == nullptr || is_batch) {
    // Notifications and responses only: nothing to answer.
    exchange->respond(202, reply_headers(), {});
    return;
  }
  // Answered later: keep the exchange for the reply, and open the stream
  // now so the client sees its request was taken.
  channel_->waiting[request_id->dump()] = exchange;
  if (accepts_event_stream(exchange->request())) exchange->start_events(reply_headers());
}

void HttpMcpSession::open_stream(const std::shared_ptr<HttpExchange>& exchange) {
  last_used_ms_ = unix_ms_now();
  if (stream_) stream_->end();  // one server stream per session: the newest wins
  stream_ = exchange;
  exchange->start_events(reply_headers());
}

void HttpMcpSession::end(const std::string& why) {
  if (ended_) return;
  ended_ = true;
  for (auto& [id, exchange] : channel_->waiting) {
    const std::string line = jsonrpc::to_line(
        jsonrpc::error(nlohmann::json::parse(id, nullptr, false),
                       MissionError(ErrorCode::daemon_unavailable,
                                    "the MCP session ended before the reply: " + why,
                                    "initialize a new session and call again")));
    if (exchange->streaming()) {
      exchange->send_event(line);
      exchange->end();
    } else {
      exchange->respond(200, {{"Content-Type", "application/json"}}, line);
    }
  }
  channel_->waiting.clear();
  if (stream_) stream_->end();
  stream_.reset();
  session_->on_closed();
}

}  // namespace mission::daemon::http
