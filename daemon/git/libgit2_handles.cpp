#include "daemon/git/libgit2_handles.hpp"

#include <mutex>

#include "shared/error_code.hpp"

namespace mission::daemon::git::lg2 {

void ensure_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

void fail(std::string_view what, std::string hint) {
  // git_error_last() is per thread, so this reads the failure of this call.
  const git_error* last = git_error_last();
  std::string message = "git: " + std::string(what);
  if (last != nullptr && last->message != nullptr) message += std::string(": ") + last->message;
  if (hint.empty()) hint = "check that the repository is readable and not corrupt, then retry";
  throw MissionError(ErrorCode::git_error, message, hint);
}

std::string oid_hex(const git_oid& oid) {
  char buffer[GIT_OID_HEXSZ];
  git_oid_fmt(buffer, &oid);
  return std::string(buffer, GIT_OID_HEXSZ);
}

}  // namespace mission::daemon::git::lg2
