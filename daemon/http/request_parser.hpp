#pragma once
// Turns a connection's bytes into HTTP/1.1 requests, one at a time, with
// Node's http-parser (docs/adr/0035). Chunked bodies are decoded; the line
// and headers, and the body, are bounded (limits.hpp).

#include <http_parser.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "daemon/http/http_request.hpp"

namespace mission::daemon::http {

class RequestParser {
 public:
  RequestParser();
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  enum class State { need_more, complete, failed };

  struct Result {
    State state = State::need_more;
    std::size_t consumed = 0;  // bytes of the input used; the rest is the next request's
    int status = 0;            // failed: the status to answer (400, 413, 431, 501)
    std::string error;         // failed: what was wrong, for the person reading it
  };

  // Parses `bytes` up to the end of one request. After `complete`, take()
  // the request before feeding more; after `failed`, the connection must
  // close: the parser cannot find the next request's start.
  Result feed(std::string_view bytes);

  // The completed request; the parser is ready for the next one.
  HttpRequest take();

  // Whether a request has begun arriving (for its timeout).
  bool in_request() const { return in_request_; }

 private:
  static int on_message_begin(http_parser* parser);
  static int on_url(http_parser* parser, const char* at, std::size_t length);
  static int on_header_field(http_parser* parser, const char* at, std::size_t length);
  static int on_header_value(http_parser* parser, const char* at, std::size_t length);
  static int on_headers_complete(http_parser* parser);
  static int on_body(http_parser* parser, const char* at, std::size_t length);
  static int on_message_complete(http_parser* parser);

  http_parser parser_{};
  http_parser_settings settings_{};
  HttpRequest request_;
  std::string target_;
  bool in_value_ = false;  // the last header callback was a value
  bool in_request_ = false;
  bool complete_ = false;
  // Bytes given to the parser since the last request ended, until this
  // one's head is complete (blank lines before it count too).
  std::size_t head_bytes_ = 0;
  bool head_complete_ = false;
  int refusal_status_ = 0;  // a limit passed: the status to answer
  std::string refusal_;
};

}  // namespace mission::daemon::http
