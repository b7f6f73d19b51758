#pragma once
// Every limit of mission in one place. Each is documented in mission(1),
// missiond(8) or mission-mcp(7); change both together.

#include <cstddef>

namespace mission::limits {

// Largest control-API or MCP frame (one JSON line) the daemon accepts. A
// larger frame is answered with payload_too_large and the connection goes on.
inline constexpr std::size_t kMaxFrameBytes = 1024 * 1024;

// Bytes queued for writing on one connection before the daemon stops reading
// from it until the peer drains its socket (backpressure).
inline constexpr std::size_t kMaxQueuedWriteBytes = 8 * 1024 * 1024;

// How long the CLI waits for an auto-started daemon to report readiness.
inline constexpr int kAutostartTimeoutMs = 5000;

// First delay between connection retries after a spawn; it doubles each time.
inline constexpr int kConnectRetryInitialMs = 10;

// How long `mission daemon stop` waits for the daemon to exit.
inline constexpr int kStopTimeoutMs = 5000;

// How long a CLI waits for one control-API answer before giving up.
inline constexpr int kRequestTimeoutMs = 30000;

// Bytes the MCP bridge holds in each direction before it stops reading from
// that side until the other side catches up.
inline constexpr std::size_t kBridgeBufferBytes = 4 * 1024 * 1024;

// Tools in one tools/list page; the rest follow through nextCursor. Larger
// than any catalog today, so clients that never page still see every tool.
inline constexpr std::size_t kToolsListPageSize = 100;

// Executions `mission exec list` asks for when no --limit is given.
inline constexpr std::size_t kDefaultExecutionListLimit = 50;

}  // namespace mission::limits
