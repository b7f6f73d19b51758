#pragma once
// Long blocking work (git snapshots and diffs) off the loop thread: `work`
// runs on a libuv thread-pool thread, then `done` runs back on the loop
// thread. `work` must touch nothing the loop owns. An exception from
// either is logged, never let into libuv; `work` should catch its own and
// hand them to `done` as a result.

#include <uv.h>

#include <functional>

namespace mission::loop {

void queue_work(uv_loop_t* loop, std::function<void()> work, std::function<void()> done);

}  // namespace mission::loop
