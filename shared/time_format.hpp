#pragma once
// Timestamps as they appear on the wire and in --json output.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mission {

// "2026-11-23T10:04:05.123Z" for milliseconds since the Unix epoch.
std::string format_utc_iso8601(std::int64_t unix_ms);

// Milliseconds since the Unix epoch of an ISO 8601 date ("2026-11-23") or
// date and time ("2026-11-23T10:04:05", optional fraction, then "Z", an
// offset like "+01:00", or nothing for UTC); nullopt if it is not one.
std::optional<std::int64_t> parse_iso8601(std::string_view text);

// A time as a person gives it for --since, relative to `now_ms`: "90s",
// "15m", "2h", "3d", "1w" (each optionally followed by " ago"), "today" or
// "yesterday" (local midnight), "now", or an ISO 8601 date or time. nullopt
// for anything else, an impossible date included.
std::optional<std::int64_t> parse_since(std::string_view text, std::int64_t now_ms);

}  // namespace mission
