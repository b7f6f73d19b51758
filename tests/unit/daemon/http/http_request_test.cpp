#include <catch2/catch.hpp>
#include <string>

#include "daemon/http/host_check.hpp"
#include "daemon/http/listen_address.hpp"
#include "daemon/http/request_parser.hpp"
#include "shared/limits.hpp"

using mission::daemon::http::HostCheck;
using mission::daemon::http::parse_listen_address;
using mission::daemon::http::RequestParser;
namespace limits = mission::limits;

namespace {

std::string post(const std::string& body, const std::string& extra = "") {
  return "POST /mcp/ae-1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n" +
         extra + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("http: a request split across reads comes out whole, headers in lower case") {
  RequestParser parser;
  const std::string wire = post("{\"a\":1}", "Authorization: Bearer abc\r\n");
  auto first = parser.feed(std::string_view(wire).substr(0, 20));
  CHECK(first.state == RequestParser::State::need_more);
  CHECK(parser.in_request());
  auto rest = parser.feed(std::string_view(wire).substr(first.consumed));
  REQUIRE(rest.state == RequestParser::State::complete);
  auto request = parser.take();
  CHECK(request.method == "POST");
  CHECK(request.path == "/mcp/ae-1");
  CHECK(request.body == "{\"a\":1}");
  REQUIRE(request.header("authorization") != nullptr);
  CHECK(*request.header("authorization") == "Bearer abc");
  CHECK(request.keep_alive);
}

TEST_CASE("http: pipelined requests come out one at a time") {
  RequestParser parser;
  const std::string wire = post("1") + post("22");
  auto first = parser.feed(wire);
  REQUIRE(first.state == RequestParser::State::complete);
  CHECK(first.consumed == post("1").size());
  CHECK(parser.take().body == "1");
  auto second = parser.feed(std::string_view(wire).substr(first.consumed));
  REQUIRE(second.state == RequestParser::State::complete);
  CHECK(parser.take().body == "22");
}

TEST_CASE("http: a chunked body is decoded") {
  RequestParser parser;
  auto result = parser.feed(
      "POST /mcp/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: "
      "chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  REQUIRE(result.state == RequestParser::State::complete);
  CHECK(parser.take().body == "abcde");

  // Its trailers are past the head's bound and no route reads them.
  RequestParser trailers;
  auto with_trailer = trailers.feed(
      "POST /mcp/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n"
      "X-Trailer: " +
      std::string(2 * limits::kMaxHttpHeaderBytes, 't') + "\r\n\r\n");
  REQUIRE(with_trailer.state == RequestParser::State::complete);
  const auto request = trailers.take();
  CHECK(request.body == "a");
  CHECK(request.header("x-trailer") == nullptr);
}

TEST_CASE("http: an oversized head is refused 431 however its bytes arrive") {
  // A bad character past the limit: the same refusal whole or byte by byte.
  const std::string wire =
      "GET /" + std::string(limits::kMaxHttpHeaderBytes, 'a') + "\x01 HTTP/1.1\r\n\r\n";
  RequestParser whole;
  auto at_once = whole.feed(wire);
  CHECK(at_once.state == RequestParser::State::failed);
  CHECK(at_once.status == 431);
  RequestParser bytes;
  RequestParser::Result last;
  for (std::size_t i = 0; i < wire.size() && last.state != RequestParser::State::failed; ++i) {
    last = bytes.feed(std::string_view(wire).substr(i, 1));
  }
  CHECK(last.state == RequestParser::State::failed);
  CHECK(last.status == 431);
  CHECK(last.error == at_once.error);
}

TEST_CASE("http: an upgrade is refused 501 before it completes, the rest never read as HTTP") {
  const std::string upgrade =
      "GET /mcp/x HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  RequestParser parser;
  auto result = parser.feed(upgrade + "GET / HTTP/1.1\r\n\r\n");
  CHECK(result.state == RequestParser::State::failed);
  CHECK(result.status == 501);
  CHECK(result.error.find("upgrades") != std::string::npos);
}

TEST_CASE("http: headers past the limit are refused 431, a body past it 413") {
  RequestParser headers;
  auto big = headers.feed(
      post("{}", "X-Padding: " + std::string(limits::kMaxHttpHeaderBytes, 'a') + "\r\n"));
  CHECK(big.state == RequestParser::State::failed);
  CHECK(big.status == 431);

  RequestParser declared;
  auto large = declared.feed("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: " +
                             std::to_string(limits::kMaxHttpBodyBytes + 1) + "\r\n\r\n");
  CHECK(large.state == RequestParser::State::failed);
  CHECK(large.status == 413);

  RequestParser chunked;
  std::string chunk(64 * 1024, 'x');
  std::string wire = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n";
  RequestParser::Result result = chunked.feed(wire);
  for (std::size_t sent = 0;
       result.state == RequestParser::State::need_more && sent <= limits::kMaxHttpBodyBytes;
       sent += chunk.size()) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
    result = chunked.feed(size + chunk + "\r\n");
  }
  CHECK(result.state == RequestParser::State::failed);
  CHECK(result.status == 413);
}

TEST_CASE("http: garbage is a 400 that names the parser's complaint") {
  RequestParser parser;
  auto result = parser.feed("HELLO\x01 / HTTP/1.1\r\n\r\n");
  CHECK(result.state == RequestParser::State::failed);
  CHECK(result.status == 400);
  CHECK(result.error.find("malformed HTTP request") != std::string::npos);
}

TEST_CASE("http: a loopback listener accepts its own names and port only") {
  auto address = parse_listen_address("127.0.0.1:8080");
  REQUIRE(address);
  HostCheck hosts(*address);
  CHECK(hosts.host_allowed("127.0.0.1:8080"));
  CHECK(hosts.host_allowed("localhost:8080"));
  CHECK(hosts.host_allowed("LOCALHOST:8080"));
  CHECK(hosts.host_allowed("[::1]:8080"));
  CHECK_FALSE(hosts.host_allowed("127.0.0.1:8081"));
  CHECK_FALSE(hosts.host_allowed("rebound.example:8080"));
  CHECK_FALSE(hosts.host_allowed("localhost"));
  CHECK(hosts.origin_allowed("http://localhost:8080"));
  CHECK_FALSE(hosts.origin_allowed("http://evil.example"));
  CHECK_FALSE(hosts.origin_allowed("null"));
}

TEST_CASE("http: a listener on every address accepts the names --http-host gives") {
  auto address = parse_listen_address("0.0.0.0:8080");
  REQUIRE(address);
  HostCheck hosts(*address, {"Devbox.example", "10.0.0.5", "[fd00::5]"});
  CHECK(hosts.canonical() == "devbox.example:8080");
  CHECK(hosts.host_allowed("devbox.example:8080"));
  CHECK(hosts.host_allowed("10.0.0.5:8080"));
  CHECK(hosts.host_allowed("[FD00::5]:8080"));
  CHECK_FALSE(hosts.host_allowed("devbox.example"));
  CHECK_FALSE(hosts.host_allowed("localhost:8080"));  // not loopback: not its names
  CHECK(hosts.origin_allowed("https://devbox.example:8080"));
}

TEST_CASE("http: --http-host takes names and addresses, no ports or other text") {
  using mission::daemon::http::valid_host_name;
  for (const char* good : {"devbox.example", "10.0.0.5", "[::1]", "a-b.c"}) {
    INFO(good);
    CHECK(valid_host_name(good));
  }
  for (const char* bad : {"", "devbox:80", "a b", "-x", ".x", "[::1", "[]", "x/y", "\x01"}) {
    INFO(bad);
    CHECK_FALSE(valid_host_name(bad));
  }
  CHECK_FALSE(valid_host_name(std::string(mission::daemon::http::kMaxHostNameBytes + 1, 'a')));
}

TEST_CASE("http: --http takes ADDR:PORT in numbers only") {
  CHECK(parse_listen_address("[::1]:0"));
  CHECK(parse_listen_address("0.0.0.0:80"));
  CHECK_FALSE(parse_listen_address("localhost:8080"));
  CHECK_FALSE(parse_listen_address("127.0.0.1"));
  CHECK_FALSE(parse_listen_address("127.0.0.1:65536"));
  CHECK_FALSE(parse_listen_address("127.0.0.1:80x"));
}
