#include "daemon/http/board_access.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "daemon/http/board_limits.hpp"

using mission::daemon::http::BoardAccess;
namespace board_limits = mission::daemon::http::board_limits;

TEST_CASE("a board sign-in link works once and only before it expires") {
  BoardAccess access;
  const std::int64_t now = 1'000'000;
  const std::string token = access.mint_sign_in(now);
  CHECK(token.size() == 64);
  BoardAccess::Session session;
  REQUIRE(access.sign_in(token, now + 1, session) == BoardAccess::SignIn::ok);
  CHECK(session.cookie.size() == 64);
  CHECK(session.csrf.size() == 64);
  CHECK(session.cookie != session.csrf);
  BoardAccess::Session again;
  CHECK(access.sign_in(token, now + 2, again) == BoardAccess::SignIn::refused);

  const std::string late = access.mint_sign_in(now);
  CHECK(access.sign_in(late, now + board_limits::kBoardSignInTtlMs, again) ==
        BoardAccess::SignIn::refused);
}

TEST_CASE("a board session carries its CSRF token until it expires or signs out") {
  BoardAccess access;
  const std::int64_t now = 5'000;
  BoardAccess::Session session;
  REQUIRE(access.sign_in(access.mint_sign_in(now), now, session) == BoardAccess::SignIn::ok);
  CHECK(access.session_csrf(session.cookie, now) == session.csrf);
  CHECK(access.csrf_matches(session.cookie, session.csrf, now));
  CHECK_FALSE(access.csrf_matches(session.cookie, session.cookie, now));
  CHECK_FALSE(access.csrf_matches(session.cookie, "", now));
  CHECK_FALSE(access.session_csrf("", now));
  CHECK_FALSE(access.session_csrf(session.csrf, now));  // the CSRF token is not a cookie
  CHECK_FALSE(access.session_csrf(session.cookie, now + board_limits::kBoardSessionTtlMs));

  BoardAccess::Session other;
  REQUIRE(access.sign_in(access.mint_sign_in(now), now, other) == BoardAccess::SignIn::ok);
  access.sign_out(other.cookie);
  CHECK_FALSE(access.session_csrf(other.cookie, now));
}

TEST_CASE("failed board sign-ins are limited per window, a good link included") {
  BoardAccess access;
  const std::int64_t now = 10'000;
  const std::string good = access.mint_sign_in(now);
  BoardAccess::Session session;
  for (std::size_t i = 0; i < board_limits::kMaxBoardSignInFailures; ++i) {
    CHECK(access.sign_in(std::string(64, 'a'), now, session) == BoardAccess::SignIn::refused);
  }
  CHECK(access.sign_in(std::string(64, 'a'), now, session) == BoardAccess::SignIn::rate_limited);
  CHECK(access.sign_in(good, now + 1, session) == BoardAccess::SignIn::rate_limited);
  // The good link was not spent by the refusal; the next window takes it.
  CHECK(access.sign_in(good, now + board_limits::kBoardSignInFailureWindowMs, session) ==
        BoardAccess::SignIn::ok);
}

TEST_CASE("the board holds a bounded number of links and sessions, dropping the oldest") {
  BoardAccess access;
  std::int64_t now = 1;
  const std::string first = access.mint_sign_in(now);
  for (std::size_t i = 0; i < board_limits::kMaxBoardSignInLinks; ++i) access.mint_sign_in(++now);
  BoardAccess::Session session;
  CHECK(access.sign_in(first, now, session) == BoardAccess::SignIn::refused);

  auto sign_in = [&](BoardAccess::Session& into) {
    const std::string token = access.mint_sign_in(++now);
    return access.sign_in(token, now, into);
  };
  BoardAccess::Session oldest;
  REQUIRE(sign_in(oldest) == BoardAccess::SignIn::ok);
  for (std::size_t i = 0; i < board_limits::kMaxBoardSessions; ++i) {
    BoardAccess::Session later;
    REQUIRE(sign_in(later) == BoardAccess::SignIn::ok);
  }
  CHECK(access.session_count() == board_limits::kMaxBoardSessions);
  CHECK_FALSE(access.session_csrf(oldest.cookie, now));
}
