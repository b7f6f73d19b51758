#pragma once
// Timestamps as they appear on the wire and in --json output.

#include <cstdint>
#include <string>

namespace mission {

// "2026-11-23T10:04:05.123Z" for milliseconds since the Unix epoch.
std::string format_utc_iso8601(std::int64_t unix_ms);

}  // namespace mission
