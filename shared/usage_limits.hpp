#pragma once
// Limits of reading the tokens and cost agents state in their streams
// (shared/agent_usage.hpp, docs/adr/0042), apart from shared/limits.hpp so
// that changing one rebuilds only the code that reads or adds up usage.
// Documented in mission(1) and missiond(8), LIMITS.

#include <cstddef>
#include <cstdint>

namespace mission::limits {

// Largest line of an agent's streaming JSON that the daemon reads for its
// usage. Claude Code's result line carries the final message, so it may
// be long; a longer line is logged but its usage is not read.
inline constexpr std::size_t kMaxUsageLineBytes = 1024 * 1024;

// Largest token count and cost an agent's stream may state. A figure past
// them (a thousand trillion tokens, a billion dollars) is no count of a
// real run: it is not recorded, and sums stop there instead of wrapping.
inline constexpr std::int64_t kMaxUsageTokens = 1'000'000'000'000'000;
inline constexpr double kMaxUsageCostUsd = 1e9;

}  // namespace mission::limits
