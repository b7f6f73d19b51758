#pragma once
// Wall-clock time for everything mission stores or compares with stored
// times, behind one seam: tests replace it with a clock they move by hand,
// so nothing that depends on time needs a sleep.

#include <cstdint>

namespace mission {

// Milliseconds since the Unix epoch, the unit of every stored timestamp.
std::int64_t unix_ms_now();

// While alive, unix_ms_now() returns the time this clock is set to. For
// tests; one at a time, on the thread that owns the code under test.
class ManualClock {
 public:
  explicit ManualClock(std::int64_t start_ms);
  ~ManualClock();
  ManualClock(const ManualClock&) = delete;
  ManualClock& operator=(const ManualClock&) = delete;

  void set(std::int64_t now_ms) { now_ms_ = now_ms; }
  void advance(std::int64_t ms) { now_ms_ += ms; }
  std::int64_t now() const { return now_ms_; }

 private:
  std::int64_t now_ms_;
};

}  // namespace mission
