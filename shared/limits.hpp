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

}  // namespace mission::limits
