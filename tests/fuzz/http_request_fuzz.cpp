// The HTTP request parser (daemon/http/request_parser.*), fed what a
// remote client may send: any bytes, split anywhere, give the same
// requests (or the same refusal) as the same bytes in one piece; no request
// passes the header or body limit; a refusal always carries a status and a
// reason; nothing is read past a refusal.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/http/request_parser.hpp"
#include "shared/limits.hpp"

namespace {

using mission::daemon::http::HttpRequest;
using mission::daemon::http::RequestParser;

struct Outcome {
  HttpRequest request;  // for a complete request
  int status = 0;       // for a refusal
  std::string error;
};

void check(bool condition) {
  if (!condition) __builtin_trap();
}

// Feeds `bytes` in pieces of `step`, taking each complete request before
// feeding on, as a connection does; stops at the first refusal.
std::vector<Outcome> parse(std::string_view bytes, std::size_t step) {
  RequestParser parser;
  std::vector<Outcome> outcomes;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    std::string_view piece = bytes.substr(at, step);
    while (!piece.empty()) {
      auto result = parser.feed(piece);
      check(result.consumed <= piece.size());
      if (result.state == RequestParser::State::failed) {
        check(result.status == 400 || result.status == 413 || result.status == 431 ||
              result.status == 501);
        check(!result.error.empty());
        outcomes.push_back({{}, result.status, result.error});
        return outcomes;
      }
      if (result.state == RequestParser::State::need_more) {
        check(result.consumed == piece.size());
        break;
      }
      outcomes.push_back({parser.take(), 0, {}});
      piece.remove_prefix(result.consumed);
    }
  }
  return outcomes;
}

bool same(const HttpRequest& a, const HttpRequest& b) {
  return a.method == b.method && a.path == b.path && a.query == b.query && a.headers == b.headers &&
         a.body == b.body && a.keep_alive == b.keep_alive && a.http_1_0 == b.http_1_0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto whole = parse(bytes, bytes.size() + 1);
  const auto pieces = parse(bytes, 1 + data[0] % 13);
  check(whole.size() == pieces.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    check(whole[i].status == pieces[i].status);
    check(whole[i].error == pieces[i].error);
    check(same(whole[i].request, pieces[i].request));
    if (whole[i].status != 0) continue;
    const HttpRequest& request = whole[i].request;
    std::size_t header_bytes = request.path.size() + request.query.size();
    for (const auto& [name, value] : request.headers) header_bytes += name.size() + value.size();
    check(header_bytes <= mission::limits::kMaxHttpHeaderBytes);
    check(request.body.size() <= mission::limits::kMaxHttpBodyBytes);
    check(!request.method.empty());
  }
  return 0;
}
