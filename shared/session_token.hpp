#pragma once
// MCP session tokens: random bearer secrets, stored only as their SHA-256 and
// checked against a presented token in constant time.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "shared/sha256.hpp"

namespace mission {

// Random bytes in one session token; the token text is twice as many hex digits.
inline constexpr std::size_t kSessionTokenBytes = 32;

// A fresh token: 64 lowercase hex digits from getrandom(2).
// Throws MissionError(internal) if the kernel cannot supply randomness.
std::string generate_session_token();

// The SHA-256 of the token text, which is what gets stored.
Sha256Digest token_digest(std::string_view token);

// Whether `stored` equals `candidate`, in time that depends only on the sizes;
// false if the sizes differ.
bool digest_matches(std::span<const std::uint8_t> stored, const Sha256Digest& candidate);

}  // namespace mission
