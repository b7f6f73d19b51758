#pragma once
// The one way a test waits: for a condition, never for a fixed time. A
// wait's bound is how long the slowest build (AddressSanitizer, under load
// on 2 cores) may take, not how long the step takes; a test that passes
// only because its machine was fast enough is a test that fails in CI.

#include <chrono>
#include <thread>

namespace mission::test {

using namespace std::chrono_literals;

// How much longer a wait may take in the sanitized build, whose code runs
// several times slower; tests/CMakeLists.txt defines it there.
#ifdef MISSION_TEST_SLOW_BUILD
inline constexpr int kWaitScale = 4;
#else
inline constexpr int kWaitScale = 1;
#endif

// Calls `condition` until it returns true, sleeping `poll` between calls,
// for at most `timeout` (scaled for the slow build). Returns whether it
// held; the caller asserts, so the failure names what was awaited.
template <class Condition>
bool eventually(Condition&& condition, std::chrono::milliseconds timeout = 10s,
                std::chrono::milliseconds poll = 10ms) {
  const auto deadline = std::chrono::steady_clock::now() + timeout * kWaitScale;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll);
  }
}

}  // namespace mission::test
