#pragma once
// The vocabulary of an AgentExecution shared by the registry, the ledger and
// the views: its states, its kinds, and how ids are made.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::execution {

// States (DESIGN.md §6). The last four are final: nothing moves an execution
// out of them, and only `message` signals are accepted there.
inline constexpr std::string_view kCreated = "created";
inline constexpr std::string_view kLaunching = "launching";
inline constexpr std::string_view kRunning = "running";
inline constexpr std::string_view kAwaitingInput = "awaiting_input";
inline constexpr std::string_view kBlocked = "blocked";
inline constexpr std::string_view kCompleted = "completed";
inline constexpr std::string_view kFailed = "failed";
inline constexpr std::string_view kCancelled = "cancelled";
inline constexpr std::string_view kLost = "lost";

bool is_final_state(std::string_view state);
bool is_known_state(std::string_view state);
// States in which an execution still has, or may get, a live agent.
const std::vector<std::string>& active_states();

// How an execution came to be (executions.kind).
inline constexpr std::string_view kKindLaunched = "launched";  // the daemon spawned it
inline constexpr std::string_view kKindExternal = "external";  // created to run elsewhere
inline constexpr std::string_view kKindAttached = "attached";  // made by an MCP attach without id

inline constexpr std::string_view kDeliveryMarker = "stdout-marker";
inline constexpr std::string_view kDeliveryMcp = "mcp-tool";

// "ae-" and 10 characters of [a-z0-9]: short enough to type, random enough
// that two never meet in one state dir (the insert would refuse anyway).
std::string new_execution_id();

// `prefix` and `length` characters of [a-z0-9], for ids that are not secrets
// (missions, tasks, ...).
std::string new_random_id(std::string_view prefix, std::size_t length);
// "ev-" and 20 characters of [a-z0-9], for signals sent without an eventId.
std::string new_event_id();

// Milliseconds since the Unix epoch, the unit of every stored timestamp.
std::int64_t unix_ms_now();

}  // namespace mission::daemon::execution
