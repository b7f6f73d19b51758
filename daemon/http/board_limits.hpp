#pragma once
// The board's limits (mission board, docs/adr/0037), documented in
// mission(1) and missiond(8) under LIMITS.

#include <cstddef>
#include <cstdint>

namespace mission::daemon::http::board_limits {

// A sign-in link works once, within kBoardSignInTtlMs of being printed: long
// enough to copy it into a browser, short enough that one left in a
// terminal's scrollback is dead. At most kMaxBoardSignInLinks wait unused;
// the oldest is dropped for a new one.
inline constexpr int kBoardSignInTtlMs = 5 * 60 * 1000;
inline constexpr std::size_t kMaxBoardSignInLinks = 16;

// A signed-in browser's session lasts kBoardSessionTtlMs (a working day);
// at most kMaxBoardSessions are held, the oldest signed out for a new one.
inline constexpr std::int64_t kBoardSessionTtlMs = 12LL * 60 * 60 * 1000;
inline constexpr std::size_t kMaxBoardSessions = 32;

// After kMaxBoardSignInFailures sign-ins with a wrong or spent link within
// kBoardSignInFailureWindowMs, every sign-in is refused (429) until the
// window has passed.
inline constexpr std::size_t kMaxBoardSignInFailures = 10;
inline constexpr int kBoardSignInFailureWindowMs = 60 * 1000;

// At most kMaxBoardEventStreams pages follow /events at once (503 past it):
// each holds a connection of kMaxHttpConnections.
inline constexpr std::size_t kMaxBoardEventStreams = 16;

// A page following an agent's screen (GET /api/executions/ID/screen) gets
// at most one frame every kBoardScreenIntervalMs, however fast the agent
// draws; while more than kMaxBoardScreenBacklogBytes wait for it to read,
// frames are skipped, never queued.
inline constexpr int kBoardScreenIntervalMs = 50;
inline constexpr std::size_t kMaxBoardScreenBacklogBytes = 256 * 1024;

}  // namespace mission::daemon::http::board_limits
