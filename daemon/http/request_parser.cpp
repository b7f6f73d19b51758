#include "daemon/http/request_parser.hpp"

#include <algorithm>
#include <cctype>
#include <climits>

#include "shared/limits.hpp"

namespace mission::daemon::http {
namespace {

RequestParser& self(http_parser* parser) {
  return *static_cast<RequestParser*>(parser->data);
}

}  // namespace

RequestParser::RequestParser() {
  http_parser_init(&parser_, HTTP_REQUEST);
  parser_.data = this;
  http_parser_settings_init(&settings_);
  settings_.on_message_begin = on_message_begin;
  settings_.on_url = on_url;
  settings_.on_header_field = on_header_field;
  settings_.on_header_value = on_header_value;
  settings_.on_headers_complete = on_headers_complete;
  settings_.on_body = on_body;
  settings_.on_message_complete = on_message_complete;
}

RequestParser::Result RequestParser::feed(std::string_view bytes) {
  Result result;
  // The head (request line and headers) is bounded in the bytes the parser
  // is given, not in what its callbacks report: a request refused for its
  // size is refused the same way however its bytes were split in transit.
  while (!bytes.empty() && !complete_ && refusal_status_ == 0) {
    std::size_t take = bytes.size();
    if (!head_complete_) {
      const std::size_t room = limits::kMaxHttpHeaderBytes - head_bytes_;
      if (room == 0) {
        refusal_status_ = 431;
        refusal_ = "the request line and headers pass " +
                   std::to_string(limits::kMaxHttpHeaderBytes) + " bytes, the limit";
        break;
      }
      take = std::min(take, room);
    }
    const std::size_t parsed = http_parser_execute(&parser_, &settings_, bytes.data(), take);
    if (!head_complete_) head_bytes_ += parsed;
    result.consumed += parsed;
    bytes.remove_prefix(parsed);
    if (parsed < take || HTTP_PARSER_ERRNO(&parser_) != HPE_OK) break;
  }
  const http_errno error = HTTP_PARSER_ERRNO(&parser_);
  if (complete_) {
    // Paused at the end of the request: the rest belongs to the next one.
    result.state = State::complete;
    return result;
  }
  if ((error != HPE_OK && error != HPE_PAUSED) || refusal_status_ != 0) {
    result.state = State::failed;
    result.status = refusal_status_ != 0 ? refusal_status_ : 400;
    result.error = refusal_status_ != 0
                       ? refusal_
                       : std::string("malformed HTTP request: ") + http_errno_description(error);
    return result;
  }
  return result;
}

HttpRequest RequestParser::take() {
  HttpRequest request = std::move(request_);
  request_ = {};
  complete_ = false;
  in_request_ = false;
  head_complete_ = false;
  head_bytes_ = 0;
  http_parser_pause(&parser_, 0);
  return request;
}

int RequestParser::on_message_begin(http_parser* parser) {
  RequestParser& p = self(parser);
  p.in_request_ = true;
  p.in_value_ = false;
  p.target_.clear();
  return 0;
}

int RequestParser::on_url(http_parser* parser, const char* at, std::size_t length) {
  RequestParser& p = self(parser);
  p.target_.append(at, length);
  return 0;
}

int RequestParser::on_header_field(http_parser* parser, const char* at, std::size_t length) {
  RequestParser& p = self(parser);
  // A chunked body's trailers: no route reads them, and they are past the
  // head's bound, so they are not kept.
  if (p.head_complete_) return 0;
  if (p.in_value_ || p.request_.headers.empty()) p.request_.headers.emplace_back();
  p.in_value_ = false;
  std::string& name = p.request_.headers.back().first;
  for (std::size_t i = 0; i < length; ++i) {
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(at[i])));
  }
  return 0;
}

int RequestParser::on_header_value(http_parser* parser, const char* at, std::size_t length) {
  RequestParser& p = self(parser);
  if (p.head_complete_) return 0;  // a trailer's
  p.in_value_ = true;
  p.request_.headers.back().second.append(at, length);
  return 0;
}

int RequestParser::on_headers_complete(http_parser* parser) {
  RequestParser& p = self(parser);
  // Refused before the request completes: past an upgrade the parser
  // reads no more HTTP, so there would be no next request to find.
  if (parser->upgrade) {
    p.refusal_status_ = 501;
    p.refusal_ = "protocol upgrades (WebSocket, h2c, CONNECT) are not served";
    return -1;
  }
  if (parser->content_length != ULLONG_MAX && parser->content_length > limits::kMaxHttpBodyBytes) {
    p.refusal_status_ = 413;
    p.refusal_ = "the body of " + std::to_string(parser->content_length) + " bytes passes the " +
                 std::to_string(limits::kMaxHttpBodyBytes) +
                 "-byte (1 MiB) limit of one MCP message";
    return -1;
  }
  p.request_.method = http_method_str(static_cast<http_method>(parser->method));
  const std::size_t question = p.target_.find('?');
  p.request_.path = p.target_.substr(0, question);
  if (question != std::string::npos) p.request_.query = p.target_.substr(question + 1);
  p.request_.http_1_0 = parser->http_major == 1 && parser->http_minor == 0;
  p.head_complete_ = true;
  return 0;
}

int RequestParser::on_body(http_parser* parser, const char* at, std::size_t length) {
  RequestParser& p = self(parser);
  // A chunked body has no length up front: count as it comes.
  if (p.request_.body.size() + length > limits::kMaxHttpBodyBytes) {
    p.refusal_status_ = 413;
    p.refusal_ = "the body passes the " + std::to_string(limits::kMaxHttpBodyBytes) +
                 "-byte (1 MiB) limit of one MCP message";
    return 1;
  }
  p.request_.body.append(at, length);
  return 0;
}

int RequestParser::on_message_complete(http_parser* parser) {
  RequestParser& p = self(parser);
  p.request_.keep_alive = http_should_keep_alive(parser) != 0;
  p.complete_ = true;
  // One request at a time: the next waits until this one is answered.
  http_parser_pause(parser, 1);
  return 0;
}

}  // namespace mission::daemon::http
