#include "daemon/http/http_response.hpp"

#include <cstdio>

namespace mission::daemon::http {
namespace {

void append_head(std::string& out, int status, const Headers& headers) {
  out += "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out += status_text(status);
  out += "\r\n";
  for (const auto& [name, value] : headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
}

}  // namespace

std::string_view status_text(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 303:
      return "See Other";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 421:
      return "Misdirected Request";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

std::string format_response(int status, const Headers& headers, std::string_view body,
                            bool keep_alive) {
  std::string out;
  out.reserve(160 + body.size());
  append_head(out, status, headers);
  // A 204 has no body, and must not say how long it is.
  if (status != 204) {
    out += "Content-Length: ";
    out += std::to_string(body.size());
    out += "\r\n";
  }
  if (!keep_alive) out += "Connection: close\r\n";
  out += "\r\n";
  out += body;
  return out;
}

std::string format_stream_head(int status, const Headers& headers, bool chunked) {
  std::string out;
  append_head(out, status, headers);
  out += chunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n";
  out += "\r\n";
  return out;
}

std::string format_chunk(std::string_view data) {
  char size[20];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  std::string out(size);
  out += data;
  out += "\r\n";
  return out;
}

}  // namespace mission::daemon::http
