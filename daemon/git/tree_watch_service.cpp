#include "daemon/git/tree_watch_service.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "shared/limits.hpp"

namespace mission::daemon::git {
namespace {

std::size_t read_user_watch_limit() {
  std::ifstream in("/proc/sys/fs/inotify/max_user_watches");
  std::size_t limit = 0;
  if (in >> limit) return limit;
  return 8192;  // the kernel's historical default
}

bool contains_path(const std::string& root, const std::string& directory) {
  return directory.size() >= root.size() && directory.compare(0, root.size(), root) == 0 &&
         (directory.size() == root.size() || directory[root.size()] == '/' || root == "/");
}

}  // namespace

TreeWatchService::TreeWatchService(uv_loop_t* loop, TreeWatchSettings settings,
                                   std::function<bool(const std::string&)> in_use)
    : loop_(loop),
      settings_(settings),
      in_use_(std::move(in_use)),
      waker_(std::make_shared<Waker>()) {
  if (settings_.user_watch_limit == 0) settings_.user_watch_limit = read_user_watch_limit();
  async_ = new uv_async_t;
  async_->data = this;
  uv_async_init(loop_, async_, [](uv_async_t* async) {
    try {
      static_cast<TreeWatchService*>(async->data)->collect_finished();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: reading a snapshot's watch report failed: %s\n", e.what());
    }
  });
  // Never what keeps the loop running: a stopping daemon waits for its
  // works, not for this.
  uv_unref(reinterpret_cast<uv_handle_t*>(async_));
  waker_->async = async_;
  idle_timer_ = std::make_unique<loop::Timer>(loop_, [this] {
    try {
      std::set<std::string> ended = std::move(ended_roots_);
      ended_roots_.clear();
      if (ended.empty()) check_idle("");
      for (const auto& root : ended) check_idle(root);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: checking watched trees failed: %s\n", e.what());
    }
  });
}

TreeWatchService::~TreeWatchService() {
  {
    std::lock_guard<std::mutex> lock(waker_->mutex);
    waker_->async = nullptr;
  }
  watchers_.clear();
  idle_timer_.reset();
  uv_close(reinterpret_cast<uv_handle_t*>(async_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_async_t*>(handle); });
}

TreeWatcher* TreeWatchService::watcher_holding(const std::string& directory) {
  TreeWatcher* best = nullptr;
  for (auto& [root, watcher] : watchers_) {
    if (contains_path(root, directory) && (best == nullptr || root.size() > best->root().size())) {
      best = watcher.get();
    }
  }
  return best;
}

std::size_t TreeWatchService::watches_in_use() const {
  std::size_t total = 0;
  for (const auto& [root, watcher] : watchers_) total += watcher->watch_count();
  return total;
}

std::size_t TreeWatchService::budget_for(const TreeWatcher* watcher) const {
  std::size_t share = settings_.user_watch_limit * limits::kWatchShareOfUserLimitPercent / 100;
  std::size_t others = watches_in_use() - (watcher != nullptr ? watcher->watch_count() : 0);
  std::size_t left = share > others ? share - others : 0;
  return std::min(left, limits::kMaxWatchesPerTree);
}

std::shared_ptr<WatchTicket> TreeWatchService::ticket_for(const std::string& directory,
                                                          bool may_start) {
  collect_finished();
  auto ticket = std::make_shared<WatchTicket>();
  std::uint64_t epoch = ++epochs_;
  if (!stopped_ && watcher_holding(directory) == nullptr) make_room();
  if (TreeWatcher* watcher = stopped_ ? nullptr : watcher_holding(directory)) {
    idle_since_.erase(watcher->root());  // in use again: it lingers afresh when idle
    watcher->drain();
    ticket->request = watcher->request(epoch, budget_for(watcher));
    // A repository nested in the watched tree is a tree of its own.
    ticket->request.watch_new_trees = settings_.watch_new_trees;
    ticket->request.may_start = may_start;
  } else {
    WatchRequest& request = ticket->request;
    request.new_epoch = epoch;
    request.watch_new_trees = settings_.watch_new_trees && !stopped_;
    request.may_start = may_start && !stopped_;
    request.watch_budget = budget_for(nullptr);
    if (stopped_) {
      request.refused = "the daemon is stopping";
    } else if (watchers_.size() >= limits::kMaxWatchedTrees) {
      request.refused =
          "the daemon already watches " + std::to_string(limits::kMaxWatchedTrees) + " trees";
    }
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  ticket->on_done = [done, waker = waker_] {
    done->store(true, std::memory_order_release);
    waker->wake();
  };
  outstanding_.push_back({ticket, done});
  return ticket;
}

void TreeWatchService::collect_finished() {
  for (std::size_t i = 0; i < outstanding_.size();) {
    if (!outstanding_[i].done->load(std::memory_order_acquire)) {
      ++i;
      continue;
    }
    std::shared_ptr<WatchTicket> ticket = std::move(outstanding_[i].ticket);
    outstanding_.erase(outstanding_.begin() + static_cast<std::ptrdiff_t>(i));
    finish(*ticket);
  }
}

void TreeWatchService::finish(WatchTicket& ticket) {
  WatchReport& report = ticket.report;
  if (report.new_inotify_fd >= 0) {
    adopt(ticket);
    return;
  }
  const WatchRequest& request = ticket.request;
  if (request.root.empty()) {  // a tree not watched, which stays so
    if (report.used && !report.unwatched_reason.empty())
      remember_refusal(report.root, report.unwatched_reason);
    return;
  }
  auto found = watchers_.find(request.root);
  // A watcher dropped and made again meanwhile is not the one that asked.
  if (found == watchers_.end() || found->second->serial() != request.watcher) return;
  found->second->finish(request, report);
  if (report.used && !report.unwatched_reason.empty())
    unwatch(request.root, report.unwatched_reason);
}

void TreeWatchService::adopt(WatchTicket& ticket) {
  WatchReport& report = ticket.report;
  int fd = report.new_inotify_fd;
  report.new_inotify_fd = -1;
  std::string reason = report.unwatched_reason;
  if (reason.empty() && !report.succeeded) reason = "its first snapshot failed";
  if (reason.empty() && stopped_) reason = "the daemon is stopping";
  if (reason.empty() && watchers_.count(report.root) != 0) reason = "already watched";
  if (reason.empty() && watchers_.size() >= limits::kMaxWatchedTrees) {
    reason = "the daemon already watches " + std::to_string(limits::kMaxWatchedTrees) + " trees";
  }
  if (!reason.empty()) {
    ::close(fd);
    if (reason != "already watched") remember_refusal(report.root, reason);
    return;
  }
  auto watcher =
      std::make_unique<TreeWatcher>(loop_, report.root, fd, report, ticket.request.new_epoch);
  std::fprintf(stderr, "missiond: watching %s (%zu directories, one inotify watch each)\n",
               report.root.c_str(), watcher->watch_count());
  refused_.erase(report.root);
  watcher->listen([this, root = report.root](const std::string& path) {
    if (listener_) listener_(root, path);
  });
  watchers_[report.root] = std::move(watcher);
  idle_timer_->start(limits::kWatchIdleCheckMs);
}

void TreeWatchService::make_room() {
  while (!idle_since_.empty() && (watchers_.size() >= limits::kMaxWatchedTrees ||
                                  budget_for(nullptr) < limits::kMaxWatchesPerTree)) {
    auto oldest =
        std::min_element(idle_since_.begin(), idle_since_.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    std::fprintf(stderr,
                 "missiond: a tree not watched yet needs the place of %s; its watches end\n",
                 oldest->first.c_str());
    watchers_.erase(oldest->first);
    idle_since_.erase(oldest);
  }
}

void TreeWatchService::unwatch(const std::string& root, const std::string& reason) {
  idle_since_.erase(root);
  watchers_.erase(root);
  remember_refusal(root, reason);
}

void TreeWatchService::remember_refusal(const std::string& root, const std::string& reason) {
  std::fprintf(stderr, "missiond: not watching %s: %s; its snapshots look at the whole tree\n",
               root.c_str(), reason.c_str());
  // A few reasons are enough for `mission status`; the log has them all.
  if (refused_.size() >= limits::kMaxWatchedTrees && refused_.count(root) == 0)
    refused_.erase(refused_.begin());
  refused_[root] = reason;
}

void TreeWatchService::task_ended(const std::string& root) {
  if (watchers_.count(root) == 0) return;
  // Several may end in one turn (a run's agents, stopped together).
  ended_roots_.insert(root);
  idle_timer_->start(0);
}

void TreeWatchService::check_idle(const std::string& ended_root) {
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    // After a task ended only its tree is checked: a tree adopted a moment
    // ago may belong to a task whose start is not recorded yet, and the
    // periodic check comes to it a period later.
    bool checked = ended_root.empty() || it->first == ended_root;
    if (!checked || it->second->busy()) {
      ++it;
      continue;
    }
    const std::string& root = it->first;
    if (in_use_(root)) {
      idle_since_.erase(root);
      ++it;
      continue;
    }
    // An idle tree lingers, watched, for the next task's start_task; one
    // whose root is gone (a run's worktree removed) has nothing to wait for.
    const std::uint64_t now = uv_now(loop_);
    const std::uint64_t since = idle_since_.try_emplace(root, now).first->second;
    const bool gone = ::access(root.c_str(), F_OK) != 0;
    if (gone || now - since >= static_cast<std::uint64_t>(settings_.linger_ms)) {
      std::fprintf(stderr, "missiond: no task in progress needs %s any more; its watches end\n",
                   root.c_str());
      idle_since_.erase(root);
      it = watchers_.erase(it);
    } else {
      ++it;
    }
  }
  if (!watchers_.empty()) idle_timer_->start(limits::kWatchIdleCheckMs);
}

nlohmann::json TreeWatchService::status() const {
  nlohmann::json trees = nlohmann::json::array();
  for (const auto& [root, watcher] : watchers_) {
    trees.push_back({{"root", root}, {"watched", true}, {"watches", watcher->watch_count()}});
  }
  for (const auto& [root, reason] : refused_) {
    if (watchers_.count(root) != 0) continue;
    trees.push_back({{"root", root}, {"watched", false}, {"watches", 0}, {"reason", reason}});
  }
  return {{"enabled", settings_.watch_new_trees},
          {"userWatchLimit", settings_.user_watch_limit},
          {"watches", watches_in_use()},
          {"trees", std::move(trees)}};
}

void TreeWatchService::stop() {
  stopped_ = true;
  watchers_.clear();
  idle_since_.clear();
  idle_timer_->stop();
}

}  // namespace mission::daemon::git
