#pragma once
// The --gate's queue (docs/adr/0041, "The queue"): the tasks waiting to
// land are merged one after another onto the integration tip, a chain of
// merge commits where the k-th holds the first k tasks (a prefix), and
// prefixes are gated rather than tasks. The whole chain first; on a
// failure, prefixes between the longest that passed and the shortest that
// failed, until the shortest failing prefix is one task longer than what
// landed: that task is the culprit. With --gate-parallel N, N prefixes are
// gated at once (speculative tips, as merge queues do); with 1 it is a
// bisection. Pure arithmetic: the run service does the git work.

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

namespace mission::daemon::runs {

// Where a batch of `size` chained merges stands: the first `landed` are in
// the integration branch, and the prefix of `failing` tasks (when known)
// failed the gate.
struct QueueState {
  std::size_t size = 0;
  std::size_t landed = 0;
  std::optional<std::size_t> failing;
};

// The prefixes (their lengths, ascending) to gate next, at most `parallel`
// of them: the whole batch and, in parallel, evenly spaced shorter ones
// while nothing failed; else evenly spaced between what landed and the
// failing prefix. Empty when nothing is left to gate: everything landed,
// or the culprit is known (culprit() says which).
std::vector<std::size_t> prefixes_to_gate(const QueueState& state, std::size_t parallel);

// The task (its index in the batch) that makes the shortest failing prefix
// fail on its own, once it is the only one between what landed and it.
std::optional<std::size_t> culprit(const QueueState& state);

// After a round of verdicts (prefix length -> passed): the state it leaves,
// landing the longest passing prefix shorter than every failing one. The
// prefixes landed are state.landed+1 .. the new landed.
QueueState after_round(const QueueState& state, const std::map<std::size_t, bool>& verdicts);

}  // namespace mission::daemon::runs
