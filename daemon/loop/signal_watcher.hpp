#pragma once
// Runs a callback on the loop thread when the process receives a signal.

#include <uv.h>

#include <functional>

namespace mission::loop {

class SignalWatcher {
 public:
  SignalWatcher(uv_loop_t* loop, int signum, std::function<void(int)> callback);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  // Stops watching and closes the handle (so the loop can end).
  void close();

 private:
  static void on_signal(uv_signal_t* handle, int signum);

  // Heap-allocated so the handle outlives this object until its close callback.
  uv_signal_t* handle_;
  std::function<void(int)> callback_;
};

}  // namespace mission::loop
