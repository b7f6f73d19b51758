#include "daemon/execution/observation_policy.hpp"

#include "daemon/execution/agent_execution.hpp"

namespace mission::daemon::execution {

std::optional<std::string_view> state_after_signal(std::string_view current,
                                                   std::string_view signal) {
  if (is_final_state(current)) return std::nullopt;
  std::optional<std::string_view> next;
  if (signal == "progress") next = kRunning;
  if (signal == "needs_input") next = kAwaitingInput;
  if (signal == "blocked") next = kBlocked;
  if (next && *next == current) return std::nullopt;
  return next;
}

std::string_view ack_status_for_signal(std::string_view signal) {
  if (signal == "progress" || signal == "needs_input" || signal == "blocked") return "accepted";
  return "recorded-only";
}

bool accepted_after_final(std::string_view signal) { return signal == "message"; }

std::string_view final_state_after_exit(std::int64_t exit_status, int term_signal,
                                        bool stop_requested,
                                        const std::optional<std::string>& last_claim) {
  if (stop_requested) return kCancelled;
  if (exit_status != 0 || term_signal != 0) return kFailed;
  if (last_claim && *last_claim == "failed_claim") return kFailed;
  return kCompleted;
}

}  // namespace mission::daemon::execution
