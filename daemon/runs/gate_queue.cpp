#include "daemon/runs/gate_queue.hpp"

#include <algorithm>

namespace mission::daemon::runs {

std::vector<std::size_t> prefixes_to_gate(const QueueState& state, std::size_t parallel) {
  std::vector<std::size_t> out;
  if (state.landed >= state.size || culprit(state)) return out;
  parallel = std::max<std::size_t>(parallel, 1);
  const std::size_t from = state.landed;
  if (!state.failing) {
    // The whole batch, and with more gates the shorter prefixes that land
    // something should it fail.
    const std::size_t span = state.size - from;
    for (std::size_t k = 1; k <= parallel; ++k)
      out.push_back(from + (span * k + parallel - 1) / parallel);
  } else {
    // Strictly between what landed and what failed; a bisection with one.
    const std::size_t span = *state.failing - from;
    for (std::size_t k = 1; k <= parallel; ++k) {
      const std::size_t length = from + span * k / (parallel + 1);
      if (length > from && length < *state.failing) out.push_back(length);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::size_t> culprit(const QueueState& state) {
  if (state.failing && *state.failing == state.landed + 1) return state.landed;
  return std::nullopt;
}

QueueState after_round(const QueueState& state, const std::map<std::size_t, bool>& verdicts) {
  QueueState next = state;
  for (const auto& [length, passed] : verdicts) {
    if (!passed && (!next.failing || length < *next.failing)) next.failing = length;
  }
  for (const auto& [length, passed] : verdicts) {
    if (passed && length > next.landed && (!next.failing || length < *next.failing))
      next.landed = length;
  }
  return next;
}

}  // namespace mission::daemon::runs
