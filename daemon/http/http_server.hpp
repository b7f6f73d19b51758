#pragma once
// The daemon's HTTP listener (missiond --http, docs/adr/0035): accepts TCP
// connections on the loop, checks every request's Host and Origin against
// the listener (no DNS rebinding), and routes it: /mcp/<execution-id> to
// MCP over Streamable HTTP, and every other path to the board (board.hpp).

#include <sys/socket.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/http/board.hpp"
#include "daemon/http/host_check.hpp"
#include "daemon/http/http_connection.hpp"
#include "daemon/http/mcp_endpoint.hpp"
#include "daemon/loop/listener.hpp"
#include "daemon/mcp/session_services.hpp"

namespace mission::daemon::http {

class HttpServer {
 public:
  HttpServer(mcp::SessionServices& services, ControlServices& control);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds `address` and listens, taking Host headers that name it or one
  // of `host_names` (missiond --http-host); throws MissionError saying why
  // not.
  void listen(const sockaddr_storage& address, const std::vector<std::string>& host_names = {});
  // "127.0.0.1:8080": the address bound, with the port picked for 0.
  const std::string& address() const { return address_; }

  // A one-time sign-in link to the board (board.open).
  nlohmann::json mint_board_sign_in() { return board_.mint_sign_in(address_); }

  // Stops accepting, ends the MCP sessions and closes every connection.
  void stop();

  std::size_t connection_count() const { return listener_.connection_count(); }

 private:
  void route(const std::shared_ptr<HttpExchange>& exchange);

  mcp::SessionServices& services_;
  loop::Listener listener_;
  McpEndpoint mcp_;
  Board board_;
  std::optional<HostCheck> hosts_;
  std::string address_;
  bool stopped_ = false;
};

}  // namespace mission::daemon::http
