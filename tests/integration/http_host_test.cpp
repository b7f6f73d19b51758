// missiond --http-host: a listener on every address answers requests whose
// Host names the host as the person said (and refuses every other name,
// against DNS rebinding); without a name it does not start, saying why.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// The status line of one GET / sent to 127.0.0.1:port with this Host.
std::string status_line(int port, const std::string& host) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  const std::string request = "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  REQUIRE(::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size()));
  std::string reply;
  char buffer[4096];
  ssize_t n = 0;
  while (reply.find("\r\n") == std::string::npos && (n = ::read(fd, buffer, sizeof buffer)) > 0)
    reply.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  return reply.substr(0, reply.find("\r\n"));
}

}  // namespace

TEST_CASE("missiond --http on every address needs --http-host, and answers only those names") {
  Instance instance;
  {
    DaemonProcess unnamed(instance, {"--http", "0.0.0.0:0"});
    CHECK_FALSE(unnamed.ready());
    CHECK(unnamed.readiness().find("listens on every address") != std::string::npos);
    unnamed.wait_exit();
    CHECK(unnamed.stderr_text().find("--http-host") != std::string::npos);
  }
  {
    DaemonProcess bad(instance, {"--http", "0.0.0.0:0", "--http-host", "devbox.example:80"});
    CHECK_FALSE(bad.ready());
    CHECK(bad.readiness().find("is not a host name") != std::string::npos);
  }
  DaemonProcess daemon(instance, {"--http", "0.0.0.0:0", "--http-host", "Devbox.example,10.1.2.3"});
  REQUIRE(daemon.ready());
  ProcessResult status = run_mission(instance, {"daemon", "status", "--json"});
  REQUIRE(status.exit_code == 0);
  const std::string http = json::parse(status.out).value("http", "");
  INFO(status.out);
  REQUIRE(http.starts_with("0.0.0.0:"));
  const int port = std::stoi(http.substr(http.find(':') + 1));
  const std::string named = status_line(port, "devbox.example:" + std::to_string(port));
  CHECK(named.starts_with("HTTP/1.1 "));
  CHECK(named.find(" 421 ") == std::string::npos);
  CHECK(status_line(port, "10.1.2.3:" + std::to_string(port)).find(" 421 ") == std::string::npos);
  CHECK(status_line(port, "rebound.example:" + std::to_string(port)).find(" 421 ") !=
        std::string::npos);
  CHECK(status_line(port, "devbox.example:1").find(" 421 ") != std::string::npos);
}
