#pragma once
// The daemon's watched trees (docs/adr/0013-watched-trees.md), on the loop
// thread. Before the work of a snapshot or change set is queued, the caller
// asks for a ticket for the directory; the work (take_snapshot,
// compute_change_set) takes it along, and the service reads the work's
// report back on the loop: a tree the work started watching is adopted, a
// watched tree's changed paths are renewed. A tree is watched from its first
// snapshot on when missiond runs with --watch-trees, or when its repository
// says `git config mission.watchTrees true`; its watches end
// kWatchLingerMs after no task in progress needs it any more (at
// once when its root is gone, or when a tree not watched needs the place),
// when its watches fail, or when the daemon stops.

#include <uv.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "daemon/git/tree_watcher.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "daemon/loop/timer.hpp"

namespace mission::daemon::git {

// A watched tree no task in progress uses keeps its watches this long
// (give or take one idle check, limits::kWatchIdleCheckMs), so that the
// next task's start_task there looks only at what changed meanwhile
// instead of the whole tree; then they end. A tree not watched yet that
// needs the place (limits::kMaxWatchedTrees, or watches of the user's
// share) ends the longest idle one's watches first.
inline constexpr std::int64_t kWatchLingerMs = 10 * 60 * 1000;

struct TreeWatchSettings {
  // missiond --watch-trees: watch every git tree a task starts in.
  bool watch_new_trees = false;
  // The user's inotify watch limit; 0 reads /proc/sys/fs/inotify/max_user_watches.
  std::size_t user_watch_limit = 0;
  // How long an idle tree stays watched (tests shorten it).
  std::int64_t linger_ms = kWatchLingerMs;
};

class TreeWatchService {
 public:
  // `in_use(root)` says whether a task in progress still needs the tree at
  // `root` (asked on the loop thread).
  TreeWatchService(uv_loop_t* loop, TreeWatchSettings settings,
                   std::function<bool(const std::string&)> in_use);
  ~TreeWatchService();
  TreeWatchService(const TreeWatchService&) = delete;
  TreeWatchService& operator=(const TreeWatchService&) = delete;

  // The ticket to give the snapshot or change set of the tree holding the
  // absolute directory `directory` (a task's cwd, or a snapshot's root).
  // `may_start` lets the work start watching a tree not watched yet: true
  // for a task's first snapshot, false for its change set (the task ends
  // with it, and its watches would end at once).
  std::shared_ptr<WatchTicket> ticket_for(const std::string& directory, bool may_start = true);

  // A task of the tree at `root` has ended: if no task in progress needs
  // the tree any more (checked on the next loop turn, once the call's
  // transaction is committed), its watches linger, then end.
  void task_ended(const std::string& root);

  // {"enabled", "userWatchLimit", "watches", "trees": [{"root", "watched",
  // "watches", "reason"?}]} for daemon.status.
  nlohmann::json status() const;

  // Drops every watch; later tickets start none. For the daemon's shutdown.
  void stop();

  // Reads the reports of works that have ended (normally done when the
  // work wakes the loop). For tests and benchmarks that run the work
  // inline on the loop thread.
  void collect_finished();

  std::size_t watched_count() const { return watchers_.size(); }

  // Whether the tree at `root` is watched now.
  bool watched(const std::string& root) const { return watchers_.count(root) != 0; }

  // Told on the loop of each path seen to change in a watched tree
  // (TreeWatcher::listen), with the tree's root; one listener.
  void listen(std::function<void(const std::string& root, const std::string& path)> listener) {
    listener_ = std::move(listener);
  }

 private:
  struct Outstanding {
    std::shared_ptr<WatchTicket> ticket;
    std::shared_ptr<std::atomic<bool>> done;
  };
  // Wakes the loop from the work's thread; outlives the service while a
  // work may still hold it.
  struct Waker {
    std::mutex mutex;
    uv_async_t* async = nullptr;
    void wake() {
      std::lock_guard<std::mutex> lock(mutex);
      if (async != nullptr) uv_async_send(async);
    }
  };

  void finish(WatchTicket& ticket);
  void adopt(WatchTicket& ticket);
  void unwatch(const std::string& root, const std::string& reason);
  void remember_refusal(const std::string& root, const std::string& reason);
  void check_idle(const std::string& ended_root);
  // Ends lingering trees' watches, the longest idle first, while a tree
  // not watched yet would find no place (tree count or watch budget).
  void make_room();
  std::size_t budget_for(const TreeWatcher* watcher) const;
  std::size_t watches_in_use() const;
  TreeWatcher* watcher_holding(const std::string& directory);

  uv_loop_t* loop_;
  TreeWatchSettings settings_;
  std::function<bool(const std::string&)> in_use_;
  std::map<std::string, std::unique_ptr<TreeWatcher>> watchers_;
  std::map<std::string, std::string> refused_;  // root -> why it is not watched
  std::vector<Outstanding> outstanding_;
  std::shared_ptr<Waker> waker_;
  uv_async_t* async_ = nullptr;
  std::unique_ptr<loop::Timer> idle_timer_;
  std::set<std::string> ended_roots_;
  // Watched trees no task in progress needs, and since when (uv_now, ms).
  std::map<std::string, std::uint64_t> idle_since_;
  std::function<void(const std::string&, const std::string&)> listener_;
  std::uint64_t epochs_ = 0;
  bool stopped_ = false;
};

}  // namespace mission::daemon::git
