#pragma once
// A one-shot timer on the loop thread whose callback never outlives its
// owner: destroying the Timer stops it.

#include <uv.h>

#include <functional>

namespace mission::loop {

class Timer {
 public:
  Timer(uv_loop_t* loop, std::function<void()> callback);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // (Re)starts the timer to fire once after `milliseconds`.
  void start(int milliseconds);
  void stop();

 private:
  static void on_timeout(uv_timer_t* handle);

  // Heap-allocated so the handle outlives this object until its close callback.
  uv_timer_t* handle_;
  std::function<void()> callback_;
};

}  // namespace mission::loop
