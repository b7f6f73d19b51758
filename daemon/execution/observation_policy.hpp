#pragma once
// What an accepted signal does to its execution (DESIGN.md §6). One policy for
// every delivery: MCP tool calls and stdout markers end here alike.

#include <optional>
#include <string_view>

namespace mission::daemon::execution {

// The state a signal moves a live execution to, or nullopt to leave it.
// Claims never finish an execution: the daemon decides that from the exit.
std::optional<std::string_view> state_after_signal(std::string_view current,
                                                   std::string_view signal);

// The acknowledgement status of a newly recorded signal: `accepted` when it
// may change state, `recorded-only` for claims and messages.
std::string_view ack_status_for_signal(std::string_view signal);

// Whether `signal` may still be recorded once the execution is final.
bool accepted_after_final(std::string_view signal);

}  // namespace mission::daemon::execution
