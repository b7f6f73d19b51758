#include "shared/session_token.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "shared/error_code.hpp"

namespace mission {

std::string generate_session_token() {
  std::array<std::uint8_t, kSessionTokenBytes> bytes;
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t got = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw MissionError(
          ErrorCode::internal,
          std::string("cannot generate a session token: getrandom: ") + std::strerror(errno));
    }
    filled += static_cast<std::size_t>(got);
  }
  return to_hex(bytes);
}

Sha256Digest token_digest(std::string_view token) {
  return sha256(token);
}

bool digest_matches(std::span<const std::uint8_t> stored, const Sha256Digest& candidate) {
  if (stored.size() != candidate.size()) return false;
  // Constant time: an early exit at the first differing byte would let a
  // client that times many guesses learn how long a prefix it got right and
  // recover the digest byte by byte. So every byte is compared, the
  // differences are OR-ed together, and only the total is tested.
  std::uint8_t difference = 0;
  for (std::size_t i = 0; i < candidate.size(); ++i) {
    difference |= static_cast<std::uint8_t>(stored[i] ^ candidate[i]);
  }
  return difference == 0;
}

}  // namespace mission
