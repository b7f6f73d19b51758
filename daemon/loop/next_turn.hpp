#pragma once
// Runs a callback once in the next turn of the loop, after the turn's I/O:
// what a connection that yields its share of a turn uses to go on. A
// zero-delay Timer cannot do this with libuv before 1.45, whose timer
// phase runs a timer restarted from its own callback again at once, so
// the loop would never reach anyone else's I/O. Like Timer, the callback
// never outlives its owner: destroying the NextTurn cancels it.

#include <uv.h>

#include <functional>

namespace mission::loop {

class NextTurn {
 public:
  NextTurn(uv_loop_t* loop, std::function<void()> callback);
  ~NextTurn();
  NextTurn(const NextTurn&) = delete;
  NextTurn& operator=(const NextTurn&) = delete;

  // Runs the callback once after the I/O of the loop's next turn (the
  // loop does not block in between); scheduling it again before then does
  // nothing more.
  void schedule();
  void cancel();

 private:
  static void on_check(uv_check_t* handle);

  // Heap-allocated so the handles outlive this object until their close
  // callbacks. The idle handle only keeps the loop from blocking in poll
  // while a turn is scheduled; the check handle runs after poll.
  uv_idle_t* idle_;
  uv_check_t* check_;
  std::function<void()> callback_;
};

}  // namespace mission::loop
