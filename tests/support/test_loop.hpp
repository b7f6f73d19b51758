#pragma once
// A libuv loop of one test's own, for the handles (timers, watchers) of the
// code under test; closed at the end once their close callbacks have run.

#include <uv.h>

#include <catch2/catch.hpp>

namespace mission::test {

class TestLoop {
 public:
  TestLoop() { REQUIRE(uv_loop_init(&loop_) == 0); }
  ~TestLoop() {
    uv_run(&loop_, UV_RUN_NOWAIT);  // close callbacks
    uv_loop_close(&loop_);
  }
  TestLoop(const TestLoop&) = delete;
  TestLoop& operator=(const TestLoop&) = delete;
  uv_loop_t* get() { return &loop_; }
  // Runs until nothing is pending (every timer fired or stopped).
  void run() { uv_run(&loop_, UV_RUN_DEFAULT); }

 private:
  uv_loop_t loop_{};
};

}  // namespace mission::test
