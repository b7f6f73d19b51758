#include "daemon/git/tree_watcher.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "shared/limits.hpp"

namespace mission::daemon::git {

struct TreeWatcher::Handle {
  uv_poll_t poll{};
  int fd = -1;
  bool polling = false;
  TreeWatcher* owner = nullptr;
};

namespace {

std::string join(const std::string& dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string path;
  path.reserve(dir.size() + 1 + name.size());
  path.append(dir).append("/").append(name);
  return path;
}

bool same_or_under(const std::string& path, const std::string& dir) {
  if (dir.empty()) return true;
  return path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

}  // namespace

TreeWatcher::TreeWatcher(uv_loop_t* loop, std::string root, int inotify_fd,
                         const WatchReport& first, std::uint64_t epoch)
    : handle_(new Handle), root_(std::move(root)), serial_(epoch), epoch_(epoch) {
  handle_->fd = inotify_fd;
  handle_->owner = this;
  handle_->poll.data = handle_;
  for (const auto& [wd, path] : first.watches) paths_[wd] = path;
  if (uv_poll_init(loop, &handle_->poll, inotify_fd) == 0) {
    handle_->polling = true;
    uv_poll_start(&handle_->poll, UV_READABLE, on_readable);
  } else {
    need_full();  // only drain() reads it
  }
  // The first snapshot's watches were added as it walked; events of the
  // walk's own time are queued and read with the next drain.
}

TreeWatcher::~TreeWatcher() {
  handle_->owner = nullptr;
  if (!handle_->polling) {
    ::close(handle_->fd);
    delete handle_;
    return;
  }
  uv_poll_stop(&handle_->poll);
  uv_close(reinterpret_cast<uv_handle_t*>(&handle_->poll), [](uv_handle_t* closed) {
    auto* handle = static_cast<Handle*>(closed->data);
    // Closing the instance drops all its watches at once.
    ::close(handle->fd);
    delete handle;
  });
}

void TreeWatcher::on_readable(uv_poll_t* poll, int status, int) {
  auto* handle = static_cast<Handle*>(poll->data);
  if (handle->owner == nullptr) return;
  try {
    if (status < 0) {
      handle->owner->need_full();
      return;
    }
    handle->owner->read_events();
  } catch (...) {
    handle->owner
        ->need_full();  // out of memory for the changed paths: look at everything next time
  }
}

void TreeWatcher::drain() {
  read_events();
}

void TreeWatcher::read_events() {
  alignas(struct inotify_event) char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(handle_->fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0 && errno != EAGAIN) need_full();
      return;
    }
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const struct inotify_event*>(buffer + at);
      std::string_view name;
      if (event->len > 0) name = std::string_view(event->name);  // NUL-padded
      handle_event(event->wd, event->mask, name);
      at += static_cast<ssize_t>(sizeof(struct inotify_event) + event->len);
    }
  }
}

void TreeWatcher::handle_event(int wd, std::uint32_t mask, std::string_view name) {
  if ((mask & IN_Q_OVERFLOW) != 0) {
    need_full();
    return;
  }
  auto found = paths_.find(wd);
  if (found == paths_.end()) {
    // A watch the snapshot running now added and has not reported yet; any
    // other is one already dropped.
    if (token_out_ && (mask & IN_IGNORED) == 0) {
      if (unresolved_.size() >= limits::kMaxWatchedChangedPaths) {
        need_full();
        unresolved_.clear();
        return;
      }
      unresolved_.push_back({wd, mask, std::string(name)});
    }
    return;
  }
  if ((mask & IN_IGNORED) != 0) {  // the directory is gone: its parent's watch said so
    paths_.erase(found);
    stale_.erase(wd);
    return;
  }
  const std::string dir = found->second;
  if (stale_.count(wd) != 0) {
    need_full();
    return;
  }
  if ((mask & IN_MOVE_SELF) != 0) {
    // The directory's watches now name old paths; a full snapshot watches
    // the tree again where it is.
    for (const auto& [other, path] : paths_) {
      if (same_or_under(path, dir)) stale_.insert(other);
    }
    need_full();
    return;
  }
  if ((mask & IN_DELETE_SELF) != 0) {
    if (dir.empty()) need_full();  // the root itself
    return;
  }
  if (name.empty()) return;
  // A directory's own metadata (its mode, its times) is no file's state.
  if ((mask & IN_ISDIR) != 0 && (mask & IN_ATTRIB) != 0) return;
  mark(join(dir, name));
}

void TreeWatcher::mark(std::string path) {
  if (listener_) listener_(path);
  if (full_) return;  // everything is looked at anyway
  if (changed_.size() >= limits::kMaxWatchedChangedPaths) {
    need_full();
    return;
  }
  changed_[std::move(path)] = ++sequence_;
}

void TreeWatcher::need_full() {
  if (listener_) listener_("");
  full_ = true;
  full_since_ = ++sequence_;
  changed_.clear();
}

WatchRequest TreeWatcher::request(std::uint64_t new_epoch, std::size_t watch_budget) {
  WatchRequest request;
  request.root = root_;
  request.watcher = serial_;
  request.inotify_fd = handle_->fd;
  request.new_epoch = new_epoch;
  request.watch_budget = watch_budget;
  if (token_out_) return request;  // another snapshot of the tree holds it: a full one, alone
  token_out_ = true;
  captured_ = sequence_;
  request.holds_token = true;
  request.base_epoch = epoch_;
  request.full = full_;
  if (!full_) {
    request.changed.reserve(changed_.size());
    for (const auto& [path, sequence] : changed_) request.changed.push_back(path);
  }
  return request;
}

void TreeWatcher::finish(const WatchRequest& request, const WatchReport& report) {
  if (!request.holds_token) return;
  token_out_ = false;
  if (!report.used || !report.succeeded) {
    if (report.used) need_full();  // the remembered state may be half renewed
    unresolved_.clear();
    return;
  }
  if (report.complete) {
    // A full pass watched every directory it walked: any other watch is of
    // a directory no longer in the tree (or under a new name).
    std::unordered_map<int, std::string> now;
    for (const auto& [wd, path] : report.watches) now[wd] = path;
    for (const auto& [wd, path] : paths_) {
      if (now.count(wd) == 0) ::inotify_rm_watch(handle_->fd, wd);
    }
    paths_ = std::move(now);
    stale_.clear();
  } else {
    for (const auto& [wd, path] : report.watches) {
      paths_[wd] = path;
      stale_.erase(wd);
    }
  }
  epoch_ = request.new_epoch;
  // Changes seen before the request are in the state the snapshot left.
  for (auto it = changed_.begin(); it != changed_.end();) {
    it = it->second <= captured_ ? changed_.erase(it) : std::next(it);
  }
  if (full_ && full_since_ <= captured_ && request.full) full_ = false;
  std::vector<Unresolved> pending = std::move(unresolved_);
  unresolved_.clear();
  for (const auto& event : pending) handle_event(event.wd, event.mask, event.name);
}

}  // namespace mission::daemon::git
