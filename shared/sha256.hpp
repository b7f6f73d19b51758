#pragma once
// SHA-256 (FIPS 180-4) of a byte string, and lowercase hex for any bytes.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mission {

using Sha256Digest = std::array<std::uint8_t, 32>;

// The SHA-256 digest of `data`; allocates nothing.
Sha256Digest sha256(std::string_view data);

// Two lowercase hex digits per byte, e.g. {0x0a, 0xff} -> "0aff".
std::string to_hex(std::span<const std::uint8_t> bytes);

}  // namespace mission
