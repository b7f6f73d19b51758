#include "daemon/http/board.hpp"

#include <string_view>

#include "daemon/http/board_api.hpp"
#include "daemon/http/board_assets.hpp"
#include "daemon/http/board_limits.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::http {
namespace {

constexpr std::string_view kCookieName = "mission_board";
constexpr std::string_view kCsrfHeader = "x-mission-csrf";

// The page may load only its own files and talk only to this listener;
// no inline script or style, no frames.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

Headers page_headers(std::string_view content_type) {
  return {{"Content-Type", std::string(content_type)},
          {"Content-Security-Policy", std::string(kContentSecurityPolicy)},
          {"X-Content-Type-Options", "nosniff"},
          {"Referrer-Policy", "no-referrer"},
          {"Cache-Control", "no-store"}};
}

void refuse(const std::shared_ptr<HttpExchange>& exchange, int status, const MissionError& error) {
  exchange->respond(status, {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}},
                    nlohmann::json({{"error", error.to_payload()}}).dump());
}

// The value of cookie `name` in the request's Cookie headers, or empty.
std::string cookie_value(const HttpRequest& request, std::string_view name) {
  for (const auto& [key, value] : request.headers) {
    if (key != "cookie") continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const std::size_t end = rest.find(';');
      std::string_view pair = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=') {
        return std::string(pair.substr(name.size() + 1));
      }
    }
  }
  return {};
}

// The value of `name` in a query string, as sent (tokens are hex).
std::string query_value(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    std::string_view pair = query.substr(0, end);
    query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
    if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=') {
      return std::string(pair.substr(name.size() + 1));
    }
  }
  return {};
}

void signed_out(const std::shared_ptr<HttpExchange>& exchange) {
  refuse(exchange, 401,
         MissionError(ErrorCode::unauthorized, "this browser is not signed in to the board",
                      "run 'mission board' on the daemon's host and open the link it prints"));
}

}  // namespace

nlohmann::json Board::mint_sign_in(const std::string& address) {
  const std::string token = access_.mint_sign_in(board_clock_ms());
  return {{"url", "http://" + address + "/signin?t=" + token},
          {"expiresInMs", board_limits::kBoardSignInTtlMs}};
}

void Board::sign_in(const std::shared_ptr<HttpExchange>& exchange) {
  const HttpRequest& request = exchange->request();
  BoardAccess::Session session;
  switch (access_.sign_in(query_value(request.query, "t"), board_clock_ms(), session)) {
    case BoardAccess::SignIn::ok:
      // Redirected at once, so the spent token does not stay in the
      // address bar or the history; no-referrer keeps it from leaking.
      exchange->respond(
          303,
          {{"Location", "/"},
           {"Set-Cookie", std::string(kCookieName) + "=" + session.cookie +
                              "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" +
                              std::to_string(board_limits::kBoardSessionTtlMs / 1000)},
           {"Referrer-Policy", "no-referrer"},
           {"Cache-Control", "no-store"}},
          {});
      return;
    case BoardAccess::SignIn::refused:
      refuse(
          exchange, 403,
          MissionError(ErrorCode::forbidden, "this sign-in link is spent, expired or wrong",
                       "run 'mission board' for a new link; each works once, within " +
                           std::to_string(board_limits::kBoardSignInTtlMs / 60000) + " minutes"));
      return;
    case BoardAccess::SignIn::rate_limited:
      exchange->respond(
          429,
          {{"Content-Type", "application/json"},
           {"Retry-After", std::to_string(board_limits::kBoardSignInFailureWindowMs / 1000)}},
          nlohmann::json(
              {{"error", MissionError(ErrorCode::forbidden, "too many failed sign-ins to the board",
                                      "wait a minute, then open a new link from "
                                      "'mission board'")
                             .to_payload()}})
              .dump());
      return;
  }
}

void Board::serve_asset(const std::shared_ptr<HttpExchange>& exchange) {
  const BoardAsset* asset = find_board_asset(exchange->request().path);
  if (asset == nullptr) {
    refuse(exchange, 404,
           MissionError(ErrorCode::not_found, "nothing is served at " + exchange->request().path,
                        "the board is at /, MCP at /mcp/EXECUTION_ID"));
    return;
  }
  exchange->respond(200, page_headers(asset->content_type), asset->body);
}

void Board::handle(const std::shared_ptr<HttpExchange>& exchange) {
  const HttpRequest& request = exchange->request();
  const std::string& path = request.path;
  if (path == "/signin") {
    if (request.method != "GET") {
      refuse(exchange, 405,
             MissionError(ErrorCode::invalid_request, "sign in with GET",
                          "open the link 'mission board' prints in a browser"));
      return;
    }
    sign_in(exchange);
    return;
  }
  const bool api = path.starts_with("/api/") || path == "/events";
  if (!api) {
    if (request.method != "GET") {
      refuse(exchange, 405,
             MissionError(ErrorCode::invalid_request, "the page's files are read with GET",
                          "the board's actions are POSTs under /api/"));
      return;
    }
    serve_asset(exchange);
    return;
  }
  // Only the cookie opens the board; an agent's bearer token is for /mcp.
  const std::string cookie = cookie_value(request, kCookieName);
  const std::int64_t now = board_clock_ms();
  std::optional<std::string> csrf = access_.session_csrf(cookie, now);
  if (!csrf) {
    signed_out(exchange);
    return;
  }
  if (request.method == "POST") {
    // A page of another site may send the cookie along (SameSite aside):
    // it cannot send this listener's Origin, nor read the CSRF token.
    if (request.header("origin") == nullptr) {
      refuse(exchange, 403,
             MissionError(ErrorCode::forbidden, "a board action must carry an Origin header",
                          "act from the board's page"));
      return;
    }
    const std::string* sent = request.header(std::string(kCsrfHeader));
    if (sent == nullptr || !access_.csrf_matches(cookie, *sent, now)) {
      refuse(exchange, 403,
             MissionError(ErrorCode::forbidden, "the board action's CSRF token is missing or wrong",
                          "reload the board's page and try again"));
      return;
    }
  } else if (request.method != "GET") {
    refuse(exchange, 405,
           MissionError(ErrorCode::invalid_request, request.method + " is not a board action",
                        "read with GET, act with POST"));
    return;
  }
  if (path == "/events") {
    events_.follow(exchange);
    return;
  }
  // /api/executions/ID/screen: the agent's terminal, live.
  constexpr std::string_view kExecutions = "/api/executions/";
  constexpr std::string_view kScreen = "/screen";
  if (request.method == "GET" && path.starts_with(kExecutions) && path.ends_with(kScreen) &&
      path.size() > kExecutions.size() + kScreen.size()) {
    const std::string id(
        path.substr(kExecutions.size(), path.size() - kExecutions.size() - kScreen.size()));
    try {
      screens_.follow(exchange, id);
    } catch (const MissionError& error) {
      refuse(exchange, error.code() == ErrorCode::not_found ? 404 : 409, error);
    }
    return;
  }
  if (path == "/api/session") {
    if (request.method == "POST") {
      refuse(exchange, 405,
             MissionError(ErrorCode::invalid_request, "the session is read with GET",
                          "sign out with POST /api/signout"));
      return;
    }
    exchange->respond(200, {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}},
                      nlohmann::json({{"csrf", *csrf}}).dump());
    return;
  }
  if (path == "/api/signout" && request.method == "POST") {
    access_.sign_out(cookie);
    exchange->respond(200,
                      {{"Content-Type", "application/json"},
                       {"Set-Cookie", std::string(kCookieName) +
                                          "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"}},
                      R"({"signedOut":true})");
    return;
  }
  answer_board_api(services_, exchange, *csrf);
}

}  // namespace mission::daemon::http
