#pragma once
// One watched git tree, on the loop thread: its inotify instance (one watch
// per directory, added by the snapshots that walk the tree), read through a
// libuv poll handle, and the paths changed since its last snapshot began
// (docs/adr/0013-watched-trees.md).
//
// An event names a path: the watch's directory plus the entry's name. Lost
// events (the kernel queue overflowed), a watched directory moved (its
// watches would name old paths) or too many changes make the next snapshot
// a full one. Only one snapshot of the tree at a time holds the token that
// uses and renews the tree's remembered state; each change is kept until a
// snapshot that began after it succeeds.

#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "daemon/git/watch_ticket.hpp"

namespace mission::daemon::git {

class TreeWatcher {
 public:
  // Adopts `inotify_fd` (closed when the watcher is) with the watches the
  // tree's first snapshot added, and starts reading it. `epoch` is the
  // remembered state that snapshot left.
  TreeWatcher(uv_loop_t* loop, std::string root, int inotify_fd, const WatchReport& first,
              std::uint64_t epoch);
  ~TreeWatcher();
  TreeWatcher(const TreeWatcher&) = delete;
  TreeWatcher& operator=(const TreeWatcher&) = delete;

  const std::string& root() const { return root_; }
  // Tells this watcher apart from an earlier one of the same tree.
  std::uint64_t serial() const { return serial_; }
  std::size_t watch_count() const { return paths_.size(); }
  bool busy() const { return token_out_; }
  std::size_t changed_count() const { return changed_.size(); }

  // Reads every event queued now. Called before a request is made: a change
  // made before the call that asks for the snapshot is in the queue by then
  // (inotify queues events as the write returns).
  void drain();

  // The request for a snapshot of this tree; holds the token (and so may
  // use the changed paths) when no other snapshot of the tree does.
  WatchRequest request(std::uint64_t new_epoch, std::size_t watch_budget);

  // What the snapshot reported, on the loop once it is over. A failed
  // snapshot makes the next one full.
  void finish(const WatchRequest& request, const WatchReport& report);

  // Called on the loop with each path seen to change (relative to the
  // root), or "" when changes were lost and any path may have changed;
  // for those who follow the tree between snapshots (live conflicts).
  void listen(std::function<void(const std::string& path)> listener) {
    listener_ = std::move(listener);
  }

 private:
  static void on_readable(uv_poll_t* handle, int status, int events);
  void read_events();
  void handle_event(int wd, std::uint32_t mask, std::string_view name);
  void mark(std::string path);
  void need_full();

  struct Handle;  // the poll handle and the fd, freed in the close callback
  Handle* handle_;
  std::string root_;
  std::uint64_t serial_;
  std::unordered_map<int, std::string> paths_;  // watch descriptor -> directory, relative
  std::unordered_set<int> stale_;               // watches of moved directories
  std::unordered_map<std::string, std::uint64_t> changed_;  // path -> sequence of its latest event
  std::uint64_t sequence_ = 0;
  bool full_ = false;
  std::uint64_t full_since_ = 0;  // sequence of the event that made a full snapshot necessary
  bool token_out_ = false;
  std::uint64_t captured_ = 0;  // sequence when the token's request was made
  std::uint64_t epoch_ = 0;     // the remembered state the tree's last snapshot left
  // Events of watches the snapshot holding the token added but has not
  // reported yet.
  struct Unresolved {
    int wd;
    std::uint32_t mask;
    std::string name;
  };
  std::vector<Unresolved> unresolved_;
  std::function<void(const std::string&)> listener_;
};

}  // namespace mission::daemon::git
