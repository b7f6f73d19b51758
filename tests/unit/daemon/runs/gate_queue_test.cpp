// Which prefixes of a batch of queued tasks the --gate judges, and what
// lands after each round (daemon/runs/gate_queue.hpp).

#include "daemon/runs/gate_queue.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace mission::daemon::runs;

namespace {

// Runs the queue against a gate that fails every prefix holding task
// `bad` (an index; none when it is size or more), and counts the rounds
// and the gate runs.
struct Outcome {
  std::size_t landed = 0;
  std::optional<std::size_t> culprit;
  std::size_t gates = 0;
  std::size_t rounds = 0;
};

Outcome play(std::size_t size, std::size_t bad, std::size_t parallel) {
  QueueState state{size, 0, std::nullopt};
  Outcome out;
  for (;;) {
    const auto lengths = prefixes_to_gate(state, parallel);
    if (lengths.empty()) break;
    REQUIRE(lengths.size() <= parallel);
    std::map<std::size_t, bool> verdicts;
    for (std::size_t length : lengths) {
      REQUIRE(length > state.landed);
      REQUIRE(length <= size);
      verdicts[length] = length <= bad;
    }
    out.gates += lengths.size();
    ++out.rounds;
    state = after_round(state, verdicts);
  }
  out.landed = state.landed;
  out.culprit = culprit(state);
  return out;
}

}  // namespace

TEST_CASE("a batch that passes is gated once and lands whole") {
  const Outcome out = play(16, 16, 1);
  CHECK(out.gates == 1);
  CHECK(out.landed == 16);
  CHECK_FALSE(out.culprit);
}

TEST_CASE("one bad task among 16 is found by bisection within 1 + log2 16 gate runs") {
  for (std::size_t bad = 0; bad < 16; ++bad) {
    INFO("bad " << bad);
    const Outcome out = play(16, bad, 1);
    REQUIRE(out.culprit);
    CHECK(*out.culprit == bad);
    CHECK(out.landed == bad);
    CHECK(out.gates <= 1 + 4);
  }
}

TEST_CASE("parallel gates find the culprit in fewer rounds, never more gates at once than asked") {
  for (std::size_t bad = 0; bad < 16; ++bad) {
    INFO("bad " << bad);
    const Outcome serial = play(16, bad, 1);
    const Outcome wide = play(16, bad, 3);
    REQUIRE(wide.culprit);
    CHECK(*wide.culprit == bad);
    CHECK(wide.landed == bad);
    CHECK(wide.rounds <= serial.rounds);
  }
}

TEST_CASE("a batch of one is gated alone and is its own culprit") {
  Outcome out = play(1, 0, 1);
  CHECK(out.gates == 1);
  REQUIRE(out.culprit);
  CHECK(*out.culprit == 0);
  out = play(1, 1, 4);
  CHECK(out.gates == 1);
  CHECK(out.landed == 1);
}

TEST_CASE("a longer prefix that passes beyond a failing one does not land") {
  QueueState state{8, 0, std::nullopt};
  state = after_round(state, {{4, false}, {8, true}});
  CHECK(state.landed == 0);
  REQUIRE(state.failing);
  CHECK(*state.failing == 4);
}
