#pragma once
// The board (docs/adr/0037): a page for people beside the agents' /mcp.
// `mission board` mints a one-time link; GET /signin?t=TOKEN spends it for
// an HttpOnly, SameSite=Strict session cookie and redirects to /. Every
// other route but the page's files needs that cookie, and a POST also an
// Origin naming this listener and the session's CSRF token (from
// /api/session) in X-Mission-CSRF. An agent's bearer token opens nothing
// here, and the cookie opens nothing under /mcp.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "daemon/http/board_access.hpp"
#include "daemon/http/board_events.hpp"
#include "daemon/http/board_screens.hpp"
#include "daemon/http/host_check.hpp"
#include "daemon/http/http_connection.hpp"
#include "daemon/rpc/method_context.hpp"

namespace mission::daemon::http {

class Board {
 public:
  explicit Board(ControlServices& services)
      : services_(services), events_(services.events), screens_(services, services.mcp.loop) {}

  // Answers `exchange` (any path but /mcp's), whose Host and Origin, when
  // sent, the server has checked against `hosts`.
  void handle(const std::shared_ptr<HttpExchange>& exchange);

  // A one-time sign-in link for the listener at `address` ("127.0.0.1:PORT").
  nlohmann::json mint_sign_in(const std::string& address);

  // Ends the pages' event streams (the listener stops).
  void stop() {
    events_.end_all();
    screens_.end_all();
  }

 private:
  void sign_in(const std::shared_ptr<HttpExchange>& exchange);
  void serve_asset(const std::shared_ptr<HttpExchange>& exchange);

  ControlServices& services_;
  BoardAccess access_;
  BoardEvents events_;
  BoardScreens screens_;
};

}  // namespace mission::daemon::http
