#pragma once
// The hand-off between a tree's watcher, on the loop thread, and one
// snapshot or change set of that tree, in the thread pool
// (docs/adr/0013-watched-trees.md). The loop fills `request` before the work
// is queued and never touches the ticket again until `on_done` has told it
// the work is over; the work reads `request`, fills `report`, and reads
// nothing else the loop owns. Header-only: the git module uses it too.

#include <sys/inotify.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mission::daemon::git {

// What a directory's watch reports: any entry created, removed, moved,
// written or changed in its metadata, and the directory itself moved or
// removed. Symbolic links are never followed.
inline constexpr std::uint32_t kWatchMask =
    IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
    IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK;

struct WatchRequest {
  // The watched tree the call's directory lies in, "" when none is watched.
  std::string root;
  // That tree's inotify instance (owned by the watcher), or -1.
  int inotify_fd = -1;
  // This snapshot may use the tree's remembered state together with
  // `changed`, and renew both; only one snapshot of a tree holds it at once.
  bool holds_token = false;
  // `changed` is not known to be complete (first snapshot, lost events, a
  // directory moved): the snapshot must look at the whole tree.
  bool full = true;
  // The watcher that made the request (the loop's own bookkeeping).
  std::uint64_t watcher = 0;
  // The remembered state this request builds on, and the one it leaves.
  std::uint64_t base_epoch = 0;
  std::uint64_t new_epoch = 0;
  // Paths relative to the root where something changed since the snapshot
  // of base_epoch began; each stands for itself and everything under it.
  std::vector<std::string> changed;
  // Start watching a git tree not watched yet (missiond --watch-trees); a
  // repository can also ask for it with `git config mission.watchTrees
  // true`. Neither applies when `may_start` is false (a task's last
  // snapshot: its watches would end with it).
  bool watch_new_trees = false;
  bool may_start = true;
  // Most inotify watches this tree may hold, or why no tree may be watched
  // now (the daemon watches as many as it may).
  std::size_t watch_budget = 0;
  std::string refused;
};

// What one git snapshot looked at: for tests, benchmarks and the log.
struct SnapshotStats {
  bool watched_pass = false;           // only the changed paths were looked at
  std::size_t directories_listed = 0;  // directories read
  std::size_t directories_reused = 0;  // listings the previous snapshot had, still valid
  std::size_t files_hashed = 0;        // files read and hashed
  std::size_t files_reused = 0;        // ids the previous snapshot had, for unchanged stat data
  std::size_t paths_checked = 0;       // paths a watched snapshot looked at
  std::string full_because;            // why a watched tree got a full pass
};

struct WatchReport {
  // The work answered the request: a git tree whose root is the request's
  // (or a new tree it started watching). False for checksum trees and for a
  // nested repository inside the watched tree.
  bool used = false;
  bool succeeded = false;
  std::string root;
  // An inotify instance the work created for a tree it started watching;
  // the loop adopts it (or closes it).
  int new_inotify_fd = -1;
  // Watches added or confirmed by this work: watch descriptor and directory
  // relative to the root ("" for the root itself).
  std::vector<std::pair<int, std::string>> watches;
  // `watches` holds every directory of the tree (a full pass with watches):
  // any other watch of the tree is stale.
  bool complete = false;
  // Watching this tree was refused or given up, and why (for the log and
  // `mission status`).
  std::string unwatched_reason;
  SnapshotStats stats;
};

struct WatchTicket {
  WatchRequest request;
  WatchReport report;
  // Set by the watcher service; called once, on the work's thread, after
  // `report` is final. It must only wake the loop.
  std::function<void()> on_done;
};

}  // namespace mission::daemon::git
