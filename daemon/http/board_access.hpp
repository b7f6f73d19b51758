#pragma once
// Who may use the board (docs/adr/0037): one-time sign-in links minted for
// `mission board`, the browser sessions they open (an HttpOnly cookie and a
// CSRF token each), and the rate limit on failed sign-ins. Secrets are kept
// only as their SHA-256. Times are milliseconds of a steady clock, passed
// in so that tests can move them. Loop thread only.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace mission::daemon::http {

class BoardAccess {
 public:
  // A fresh sign-in link's token, good once within kBoardSignInTtlMs.
  std::string mint_sign_in(std::int64_t now_ms);

  struct Session {
    std::string cookie;  // the session cookie's value
    std::string csrf;    // the token a state-changing request must carry
  };
  enum class SignIn { ok, refused, rate_limited };
  // Spends `token`: a session when it is a live link, else counted as a
  // failure. Once kMaxBoardSignInFailures fail within the window, every
  // sign-in is rate_limited until the window has passed.
  SignIn sign_in(std::string_view token, std::int64_t now_ms, Session& session);

  // The CSRF token of the live session `cookie` names, or nothing.
  std::optional<std::string> session_csrf(std::string_view cookie, std::int64_t now_ms);
  // Whether `csrf` is the CSRF token of the live session `cookie` names.
  bool csrf_matches(std::string_view cookie, std::string_view csrf, std::int64_t now_ms);
  void sign_out(std::string_view cookie);

  std::size_t session_count() const { return sessions_.size(); }

 private:
  struct Link {
    std::int64_t expires_ms;
  };
  struct Held {
    std::string csrf;
    std::int64_t expires_ms;
  };
  void forget_expired(std::int64_t now_ms);

  std::map<std::string, Link> links_;     // by the token's digest (hex)
  std::map<std::string, Held> sessions_;  // by the cookie's digest (hex)
  std::int64_t failure_window_start_ms_ = 0;
  std::size_t failures_ = 0;
};

// Milliseconds of the steady clock, for BoardAccess.
std::int64_t board_clock_ms();

}  // namespace mission::daemon::http
