#pragma once
// The bounds of one snapshot or change set, and its cancellation: every walk
// calls check() between directories and files, and count_read() before it
// reads a file. Header-only, because the git module (libmission_git.so)
// uses it too, through the reference the daemon passes in: the module never
// sees the daemon's own globals.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git {

struct SnapshotLimits {
  std::chrono::milliseconds max_duration{limits::kMaxSnapshotMs};
  std::uint64_t max_read_bytes = limits::kMaxSnapshotReadBytes;
};

class SnapshotControl {
 public:
  // Cancelled once `cancel_generation` moves past its value now (see
  // cancel_running_snapshots in change_set.hpp). `tree` names the tree in
  // messages. `started_ns` is the wall-clock time the snapshot counts as
  // its start, against which files are racy (0: now); tests move it.
  SnapshotControl(const std::atomic<std::uint64_t>& cancel_generation, std::string tree,
                  SnapshotLimits limits = {}, std::int64_t started_ns = 0)
      : generation_(&cancel_generation),
        started_generation_(cancel_generation.load(std::memory_order_relaxed)),
        tree_(std::move(tree)),
        limits_(limits),
        deadline_(std::chrono::steady_clock::now() + limits.max_duration),
        started_ns_(started_ns != 0 ? started_ns
                                    : std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count()) {}
  SnapshotControl(const SnapshotControl&) = delete;
  SnapshotControl& operator=(const SnapshotControl&) = delete;

  bool cancelled() const {
    return generation_->load(std::memory_order_relaxed) != started_generation_;
  }

  // Throws MissionError shutting_down once cancelled, payload_too_large past
  // the deadline. Any thread.
  void check() const {
    if (cancelled()) {
      throw MissionError(ErrorCode::shutting_down,
                         "the snapshot of " + tree_ + " was cancelled: the daemon is stopping",
                         "retry the call once the daemon is running again");
    }
    if (std::chrono::steady_clock::now() > deadline_) {
      throw MissionError(
          ErrorCode::payload_too_large,
          "the snapshot of " + tree_ + " took longer than " +
              std::to_string(limits_.max_duration.count() / 1000) + " s",
          "run the task inside a git repository or from a narrower directory, with fewer or "
          "smaller files");
    }
  }

  // Accounts for `bytes` about to be read; throws MissionError
  // payload_too_large past the read budget, and what check() throws. Any
  // thread.
  void count_read(std::uint64_t bytes) {
    check();
    std::uint64_t total = read_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (total > limits_.max_read_bytes) {
      throw MissionError(
          ErrorCode::payload_too_large,
          "the snapshot of " + tree_ + " would read more than " +
              std::to_string(limits_.max_read_bytes / (1024 * 1024)) + " MiB of files",
          "run the task from a narrower directory, or keep large changed files out of the tree");
    }
  }

  std::uint64_t bytes_read() const { return read_.load(std::memory_order_relaxed); }
  std::int64_t started_ns() const { return started_ns_; }
  const std::string& tree() const { return tree_; }
  void set_tree(std::string tree) { tree_ = std::move(tree); }

 private:
  const std::atomic<std::uint64_t>* generation_;
  std::uint64_t started_generation_;
  std::string tree_;
  SnapshotLimits limits_;
  std::chrono::steady_clock::time_point deadline_;
  std::int64_t started_ns_;
  std::atomic<std::uint64_t> read_{0};
};

}  // namespace mission::daemon::git
