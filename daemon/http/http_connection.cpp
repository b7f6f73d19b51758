#include "daemon/http/http_connection.hpp"

#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::http {

void HttpExchange::respond(int status, const Headers& headers, std::string_view body) {
  if (!open() || streaming_) return;
  done_ = true;
  const bool keep_alive = request_.keep_alive && !request_.http_1_0;
  HttpConnection* connection = connection_;
  connection->write(format_response(status, headers, body, keep_alive));
  connection->finished(keep_alive);
}

void HttpExchange::start_events(const Headers& headers) {
  if (!open() || streaming_) return;
  streaming_ = true;
  chunked_ = !request_.http_1_0;
  Headers all = headers;
  all.emplace_back("Content-Type", "text/event-stream");
  all.emplace_back("Cache-Control", "no-cache");
  connection_->write(format_stream_head(200, all, chunked_));
}

void HttpExchange::send_event(std::string_view data) {
  if (!open() || !streaming_) return;
  std::string event = "event: message\ndata: ";
  event += data;
  if (!event.empty() && event.back() == '\n') event.pop_back();
  event += "\n\n";
  connection_->write(chunked_ ? format_chunk(event) : event);
}

void HttpExchange::end() {
  if (!open() || !streaming_) return;
  done_ = true;
  HttpConnection* connection = connection_;
  if (chunked_) connection->write(format_chunk({}));
  // Without chunks only the close ends the body.
  connection->finished(chunked_ && request_.keep_alive);
}

std::size_t HttpExchange::queued_bytes() const {
  return connection_ != nullptr ? connection_->queued_bytes() : 0;
}

void HttpExchange::abort() {
  if (connection_ != nullptr) connection_->abort();
}

HttpConnection::HttpConnection(loop::Connection& connection, uv_loop_t* loop, Handler handler)
    : connection_(connection), handler_(std::move(handler)), timer_(loop, [this] {
        if (current_ || connection_.closing()) return;
        if (waiting_for_request_) {
          refuse(408, "the request did not arrive whole within " +
                          std::to_string(limits::kHttpRequestTimeoutMs) + " ms");
        } else {
          connection_.close();  // idle between requests
        }
      }) {
  arm_timer();
}

HttpConnection::~HttpConnection() {
  if (current_) current_->connection_ = nullptr;
}

void HttpConnection::arm_timer() {
  if (current_) {
    timer_.stop();  // an answer in progress has no deadline here
    return;
  }
  const bool in_request = parser_.in_request() || !pending_.empty();
  if (in_request && waiting_for_request_) return;  // the request's deadline runs from its start
  waiting_for_request_ = in_request;
  timer_.start(in_request ? limits::kHttpRequestTimeoutMs : limits::kHttpIdleTimeoutMs);
}

void HttpConnection::on_data(loop::Connection&, std::string_view bytes) {
  pending_.append(bytes);
  if (current_) {
    // A pipelined request waits for the answer in progress; past one
    // request's worth, stop reading.
    if (pending_.size() > limits::kMaxHttpHeaderBytes + limits::kMaxHttpBodyBytes) {
      connection_.hold_reading(true);
    }
    return;
  }
  process();
}

void HttpConnection::process() {
  if (processing_) return;
  processing_ = true;
  while (!current_ && !pending_.empty() && !connection_.closing()) {
    RequestParser::Result result = parser_.feed(pending_);
    pending_.erase(0, result.consumed);
    if (result.state == RequestParser::State::failed) {
      refuse(result.status, result.error);
      break;
    }
    if (result.state == RequestParser::State::need_more) break;
    current_ = std::make_shared<HttpExchange>(this, parser_.take());
    timer_.stop();
    waiting_for_request_ = false;
    std::shared_ptr<HttpExchange> exchange = current_;
    try {
      handler_(exchange);
    } catch (const std::exception& e) {
      exchange->respond(
          500, {{"Content-Type", "application/json"}},
          jsonrpc::to_line(jsonrpc::error(nullptr, MissionError(ErrorCode::internal, e.what()))));
    }
  }
  processing_ = false;
  if (!connection_.closing()) {
    connection_.hold_reading(false);
    arm_timer();
  }
}

void HttpConnection::finished(bool keep_alive) {
  current_.reset();
  if (!keep_alive) {
    pending_.clear();
    connection_.close();
    return;
  }
  process();
}

void HttpConnection::refuse(int status, const std::string& why) {
  const std::string hint = status == 413 ? "send smaller requests; large content belongs in files"
                                         : "send one well-formed HTTP/1.1 request at a time";
  const std::string body = jsonrpc::to_line(jsonrpc::error(
      nullptr,
      MissionError(status == 413 ? ErrorCode::payload_too_large : ErrorCode::invalid_request, why,
                   hint)));
  connection_.write(format_response(status, {{"Content-Type", "application/json"}}, body, false));
  pending_.clear();
  connection_.close();
}

void HttpConnection::on_closed(loop::Connection&) {
  timer_.stop();
  if (!current_) return;
  std::shared_ptr<HttpExchange> gone = std::move(current_);
  gone->connection_ = nullptr;
  if (gone->on_gone) gone->on_gone();
}

}  // namespace mission::daemon::http
