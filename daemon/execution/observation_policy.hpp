#pragma once
// What an accepted signal does to its execution (DESIGN.md §6). One policy for
// every delivery: MCP tool calls and stdout markers end here alike.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shared/vocabulary.hpp"

namespace mission::daemon::execution {

// The state a signal moves a live execution to, or nullopt to leave it.
// Claims never finish an execution: the daemon decides that from the exit.
std::optional<ExecutionState> state_after_signal(ExecutionState current, SignalType signal);

// The acknowledgement status of a newly recorded signal: `accepted` when it
// may change state, `recorded-only` for claims and messages.
ObservationStatus ack_status_for_signal(SignalType signal);

// Whether `signal` may still be recorded once the execution is final.
bool accepted_after_final(SignalType signal);

// The final state of a launched execution whose process has ended: the
// daemon decides from how it ended, whether a stop was asked for, and the
// agent's last claim (completed_claim or failed_claim, if any).
//   stop asked for                      -> cancelled
//   exit 0, last claim failed_claim     -> failed
//   exit 0 otherwise                    -> completed
//   non-zero exit or killed by a signal -> failed
ExecutionState final_state_after_exit(std::int64_t exit_status, int term_signal,
                                      bool stop_requested, std::optional<SignalType> last_claim);

// The final state of an attached execution whose last session ended (after
// real calls): its last claim decides, and without one it is completed, as
// an agent that closes its session has stopped, not crashed (ADR 0024).
ExecutionState final_state_after_session(std::optional<SignalType> last_claim);

// The claim signal a final state bears out (completed_claim for completed,
// failed_claim for failed), or nullopt.
std::optional<SignalType> claim_borne_out_by(ExecutionState final_state);

// Whether an ACP turn that ended end_turn with `last_message` (the text of
// its last agent message) ended on a question, so that the agent waits for
// an answer (awaiting_input) rather than being done: the message ends,
// past trailing white space, with '?' or the full-width U+FF1F. The
// protocol has no stop reason for it (docs/adr/0044).
bool turn_ends_on_question(std::string_view last_message);

// The needs_input question recorded for such a turn: `last_message`
// trimmed, its last kMaxAcpQuestionBytes when longer (where the question
// is), cut on a character's boundary.
std::string acp_question_text(std::string_view last_message);

}  // namespace mission::daemon::execution
