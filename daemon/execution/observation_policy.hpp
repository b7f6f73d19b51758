#pragma once
// What an accepted signal does to its execution (DESIGN.md §6). One policy for
// every delivery: MCP tool calls and stdout markers end here alike.

#include <cstdint>
#include <optional>
#include <string>
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

// The final state of a launched execution whose process has ended: the
// daemon decides from how it ended, whether a stop was asked for, and the
// agent's last claim (completed_claim or failed_claim, if any).
//   stop asked for                      -> cancelled
//   exit 0, last claim failed_claim     -> failed
//   exit 0 otherwise                    -> completed
//   non-zero exit or killed by a signal -> failed
std::string_view final_state_after_exit(std::int64_t exit_status, int term_signal,
                                        bool stop_requested,
                                        const std::optional<std::string>& last_claim);

}  // namespace mission::daemon::execution
