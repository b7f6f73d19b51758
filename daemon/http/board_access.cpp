#include "daemon/http/board_access.hpp"

#include <algorithm>
#include <chrono>

#include "daemon/http/board_limits.hpp"
#include "shared/session_token.hpp"

namespace mission::daemon::http {
namespace {

std::string digest_hex(std::string_view secret) {
  return to_hex(token_digest(secret));
}

// Drops the entry that expires first, to make room.
template <class Map>
void drop_oldest(Map& entries) {
  auto oldest = std::min_element(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.second.expires_ms < b.second.expires_ms;
  });
  if (oldest != entries.end()) entries.erase(oldest);
}

}  // namespace

std::int64_t board_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void BoardAccess::forget_expired(std::int64_t now_ms) {
  std::erase_if(links_, [now_ms](const auto& entry) { return entry.second.expires_ms <= now_ms; });
  std::erase_if(sessions_,
                [now_ms](const auto& entry) { return entry.second.expires_ms <= now_ms; });
}

std::string BoardAccess::mint_sign_in(std::int64_t now_ms) {
  forget_expired(now_ms);
  if (links_.size() >= board_limits::kMaxBoardSignInLinks) drop_oldest(links_);
  std::string token = generate_session_token();
  links_[digest_hex(token)] = Link{now_ms + board_limits::kBoardSignInTtlMs};
  return token;
}

BoardAccess::SignIn BoardAccess::sign_in(std::string_view token, std::int64_t now_ms,
                                         Session& session) {
  forget_expired(now_ms);
  if (now_ms - failure_window_start_ms_ >= board_limits::kBoardSignInFailureWindowMs) {
    failure_window_start_ms_ = now_ms;
    failures_ = 0;
  }
  // Checked before the token: once guessing is limited, a right guess
  // gets no answer that tells it apart.
  if (failures_ >= board_limits::kMaxBoardSignInFailures) return SignIn::rate_limited;
  auto link = links_.find(digest_hex(token));
  if (link == links_.end()) {
    ++failures_;
    return SignIn::refused;
  }
  links_.erase(link);  // single use
  if (sessions_.size() >= board_limits::kMaxBoardSessions) drop_oldest(sessions_);
  session.cookie = generate_session_token();
  session.csrf = generate_session_token();
  sessions_[digest_hex(session.cookie)] =
      Held{session.csrf, now_ms + board_limits::kBoardSessionTtlMs};
  return SignIn::ok;
}

std::optional<std::string> BoardAccess::session_csrf(std::string_view cookie, std::int64_t now_ms) {
  forget_expired(now_ms);
  if (cookie.empty()) return std::nullopt;
  auto held = sessions_.find(digest_hex(cookie));
  if (held == sessions_.end()) return std::nullopt;
  return held->second.csrf;
}

bool BoardAccess::csrf_matches(std::string_view cookie, std::string_view csrf,
                               std::int64_t now_ms) {
  std::optional<std::string> expected = session_csrf(cookie, now_ms);
  if (!expected || csrf.empty()) return false;
  // Compared as digests, in constant time.
  return digest_matches(token_digest(*expected), token_digest(csrf));
}

void BoardAccess::sign_out(std::string_view cookie) {
  sessions_.erase(digest_hex(cookie));
}

}  // namespace mission::daemon::http
