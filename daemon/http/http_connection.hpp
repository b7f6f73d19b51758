#pragma once
// The HTTP side of one TCP connection: parses requests one at a time, hands
// each to the server's handler as an HttpExchange, and writes its answer,
// whole or as a stream of server-sent events. Closes a connection whose
// request is slow to arrive or that idles between requests (limits.hpp).

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "daemon/http/http_request.hpp"
#include "daemon/http/http_response.hpp"
#include "daemon/http/request_parser.hpp"
#include "daemon/loop/connection.hpp"
#include "daemon/loop/timer.hpp"

namespace mission::daemon::http {

class HttpConnection;

// One request and its answer. Whoever answers holds it; answering once the
// connection has gone does nothing. Loop thread only.
class HttpExchange {
 public:
  HttpExchange(HttpConnection* connection, HttpRequest request)
      : connection_(connection), request_(std::move(request)) {}

  const HttpRequest& request() const { return request_; }
  // The connection is there and the answer is not finished.
  bool open() const { return connection_ != nullptr && !done_; }
  bool streaming() const { return streaming_; }

  // The whole answer.
  void respond(int status, const Headers& headers, std::string_view body);
  // Starts a 200 text/event-stream answer: send_event for each message,
  // then end().
  void start_events(const Headers& headers);
  // One event whose data is `data` (one line: JSON is written compact).
  void send_event(std::string_view data);
  void end();
  // Bytes written but not yet taken by the client (0 once it has gone).
  std::size_t queued_bytes() const;
  // Drops the connection unanswered (a stream whose reader stopped).
  void abort();

  // Runs if the connection goes before the answer is finished.
  std::function<void()> on_gone;

 private:
  friend class HttpConnection;
  HttpConnection* connection_;
  HttpRequest request_;
  bool streaming_ = false;
  bool chunked_ = false;
  bool done_ = false;
};

class HttpConnection : public loop::ConnectionDelegate {
 public:
  using Handler = std::function<void(const std::shared_ptr<HttpExchange>&)>;

  HttpConnection(loop::Connection& connection, uv_loop_t* loop, Handler handler);
  ~HttpConnection() override;

  void on_data(loop::Connection& connection, std::string_view bytes) override;
  void on_closed(loop::Connection& connection) override;

 private:
  friend class HttpExchange;
  void write(std::string_view bytes) { connection_.write(bytes); }
  std::size_t queued_bytes() const { return connection_.queued_bytes(); }
  void abort() { connection_.abort(); }
  // The current exchange's answer is complete: on to the next request, or
  // close when the client or the answer said so.
  void finished(bool keep_alive);
  // Parses what is pending while no exchange is open.
  void process();
  void refuse(int status, const std::string& why);
  void arm_timer();

  loop::Connection& connection_;
  Handler handler_;
  RequestParser parser_;
  std::shared_ptr<HttpExchange> current_;
  std::string pending_;  // bytes not parsed yet
  bool processing_ = false;
  bool waiting_for_request_ = false;  // which limit the timer holds
  loop::Timer timer_;
};

}  // namespace mission::daemon::http
