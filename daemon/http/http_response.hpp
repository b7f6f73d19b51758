#pragma once
// The bytes of HTTP/1.1 responses: a whole one, or the head and chunks of
// a stream (server-sent events).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mission::daemon::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

// "OK", "Not Found", ... for the statuses the daemon answers.
std::string_view status_text(int status);

// A complete response with Content-Length (but a 204); `keep_alive` false
// adds "Connection: close".
std::string format_response(int status, const Headers& headers, std::string_view body,
                            bool keep_alive);

// The head of a response whose body follows in pieces: chunked, or (for
// an HTTP/1.0 client) until the connection closes.
std::string format_stream_head(int status, const Headers& headers, bool chunked);

// One piece of a chunked body; empty `data` is the last chunk.
std::string format_chunk(std::string_view data);

}  // namespace mission::daemon::http
