#include "daemon/execution/observation_policy.hpp"

#include "shared/limits.hpp"

namespace mission::daemon::execution {

std::optional<ExecutionState> state_after_signal(ExecutionState current, SignalType signal) {
  if (is_final(current)) return std::nullopt;
  std::optional<ExecutionState> next;
  if (signal == SignalType::progress) next = ExecutionState::running;
  if (signal == SignalType::needs_input) next = ExecutionState::awaiting_input;
  if (signal == SignalType::blocked) next = ExecutionState::blocked;
  if (next && *next == current) return std::nullopt;
  return next;
}

ObservationStatus ack_status_for_signal(SignalType signal) {
  if (signal == SignalType::progress || signal == SignalType::needs_input ||
      signal == SignalType::blocked) {
    return ObservationStatus::accepted;
  }
  return ObservationStatus::recorded_only;
}

bool accepted_after_final(SignalType signal) {
  return signal == SignalType::message;
}

ExecutionState final_state_after_exit(std::int64_t exit_status, int term_signal,
                                      bool stop_requested, std::optional<SignalType> last_claim) {
  if (stop_requested) return ExecutionState::cancelled;
  if (exit_status != 0 || term_signal != 0) return ExecutionState::failed;
  if (last_claim == SignalType::failed_claim) return ExecutionState::failed;
  return ExecutionState::completed;
}

ExecutionState final_state_after_session(std::optional<SignalType> last_claim) {
  // The client closed its session: an agent that worked and stopped without
  // claiming anything, not a crash (ADR 0024).
  if (!last_claim) return ExecutionState::completed;
  return *last_claim == SignalType::completed_claim ? ExecutionState::completed
                                                    : ExecutionState::failed;
}

std::optional<SignalType> claim_borne_out_by(ExecutionState final_state) {
  if (final_state == ExecutionState::completed) return SignalType::completed_claim;
  if (final_state == ExecutionState::failed) return SignalType::failed_claim;
  return std::nullopt;
}

namespace {

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

bool turn_ends_on_question(std::string_view last_message) {
  const std::string_view text = trimmed(last_message);
  return text.ends_with('?') || text.ends_with("\xEF\xBC\x9F");
}

std::string acp_question_text(std::string_view last_message) {
  std::string_view text = trimmed(last_message);
  if (text.size() > limits::kMaxAcpQuestionBytes) {
    text.remove_prefix(text.size() - limits::kMaxAcpQuestionBytes);
    // Not in the middle of a character: continuation bytes are 10xxxxxx.
    while (!text.empty() && (static_cast<unsigned char>(text.front()) & 0xC0) == 0x80) {
      text.remove_prefix(1);
    }
  }
  return std::string(text);
}

}  // namespace mission::daemon::execution
