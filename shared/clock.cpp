#include "shared/clock.hpp"

#include <chrono>

namespace mission {
namespace {

const ManualClock* g_manual_clock = nullptr;

}  // namespace

std::int64_t unix_ms_now() {
  if (g_manual_clock != nullptr) return g_manual_clock->now();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ManualClock::ManualClock(std::int64_t start_ms) : now_ms_(start_ms) {
  g_manual_clock = this;
}

ManualClock::~ManualClock() {
  g_manual_clock = nullptr;
}

}  // namespace mission
