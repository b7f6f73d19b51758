#pragma once
// Parallel loops for the stat passes of snapshots: the calling thread (a
// libuv thread-pool thread in the daemon) and a few helpers share the work.
// Header-only: the git module uses it too.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "shared/limits.hpp"

namespace mission::daemon::git {

// As many threads as the machine has cores, from 1 to kMaxSnapshotThreads.
inline unsigned snapshot_threads() {
  return std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, limits::kMaxSnapshotThreads);
}

// Calls fn(i, slot) for every i in [0, count), in batches of `batch` taken
// in turn by up to `threads` threads (fewer when there is little to do);
// `slot`, below `threads`, tells the threads apart (for per-thread
// buffers or results; the calling thread is slot 0). The
// first exception stops the other threads at their next batch and is
// rethrown here once all have stopped.
template <typename Fn>
void parallel_for(std::size_t count, std::size_t batch, unsigned threads, Fn&& fn) {
  if (count == 0) return;
  batch = std::max<std::size_t>(batch, 1);
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, (count + batch - 1) / batch));
  threads = std::max(threads, 1u);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  auto work = [&](unsigned slot) {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        std::size_t first = next.fetch_add(batch, std::memory_order_relaxed);
        if (first >= count) break;
        std::size_t last = std::min(first + batch, count);
        for (std::size_t i = first; i < last; ++i) fn(i, slot);
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) helpers.emplace_back(work, i);
  work(0);
  for (auto& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace mission::daemon::git
