#pragma once
// What the latest snapshot of a tree learned, kept in memory for the next
// snapshot of the same tree: a bounded store of one memo per tree root.
// A snapshot takes its tree's memo out and puts the new one back, so two
// snapshots of one tree at once never share one: the second simply goes
// without. Any thread. Header-only: the git module keeps its own store.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "shared/limits.hpp"

namespace mission::daemon::git {

template <typename Memo>
class MemoStore {
 public:
  // At most `max_trees` memos whose costs add up to at most `max_cost`.
  MemoStore(std::size_t max_trees, std::size_t max_cost)
      : max_trees_(max_trees), max_cost_(max_cost) {}

  // The memo of `root`, taken out of the store; nullptr when there is none.
  std::unique_ptr<Memo> take(const std::string& root) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->root != root) continue;
      std::unique_ptr<Memo> memo = std::move(it->memo);
      total_cost_ -= it->cost;
      entries_.erase(it);
      return memo;
    }
    return nullptr;
  }

  // Stores `memo` as the newest, replacing any memo of `root`, then drops
  // the oldest ones past the bounds. A memo costing more than the whole
  // budget is not kept.
  void put(const std::string& root, std::unique_ptr<Memo> memo, std::size_t cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->root != root) continue;
      total_cost_ -= it->cost;
      entries_.erase(it);
      break;
    }
    if (!memo || cost > max_cost_) return;
    entries_.push_front({root, std::move(memo), cost});
    total_cost_ += cost;
    while (entries_.size() > max_trees_ || total_cost_ > max_cost_) {
      total_cost_ -= entries_.back().cost;
      entries_.pop_back();
    }
  }

  void forget(const std::string& root) { put(root, nullptr, 0); }

 private:
  struct Entry {
    std::string root;
    std::unique_ptr<Memo> memo;
    std::size_t cost;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;
  std::size_t max_trees_;
  std::size_t max_cost_;
  std::size_t total_cost_ = 0;
};

}  // namespace mission::daemon::git
