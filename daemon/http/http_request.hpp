#pragma once
// One parsed HTTP/1.1 request: what the routes read.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mission::daemon::http {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // the target without its query, as sent (not decoded)
  std::string query;   // after '?', or empty
  // Names in lower case, values as sent; a repeated header appears twice.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool keep_alive = true;  // the client lets the connection serve another request
  bool http_1_0 = false;   // no chunked responses

  // The first value of header `name` (lower case), or nullptr.
  const std::string* header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
      if (key == name) return &value;
    }
    return nullptr;
  }
};

}  // namespace mission::daemon::http
