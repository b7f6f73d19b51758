#pragma once
// The work tree side of a git snapshot: how each tracked file compares with
// the index, and which untracked files there are, from one stat pass over
// the tree's directories on snapshot_threads() threads.
//
// The pass follows git's own rules (git's preload-index and
// ie_match_stat): a tracked file whose stat data (mode, size, mtime, ctime,
// inode, owner) equals what the index cached is as the index says, without
// being read, unless it is racily clean: its mtime is not older than the
// index file's, so it may have changed within the same timestamp tick after
// git cached its stat data. Those, and files whose stat data changed, are
// hashed (with the repository's filters, as git add would) and compared by
// content. A file hashed in the tree's previous snapshot whose stat data has
// not moved since, and was not racy then, keeps the id found then.
//
// Untracked files are found by listing directories: every directory holding
// tracked files, and below them every untracked directory that is not
// ignored (a nested repository is left out whole, as git status does). A
// directory whose stat data (mtime included) is unchanged since the previous
// snapshot listed it, on a local file system, is not listed again: its
// untracked names are the same. Ignore rules are libgit2's.

#include <git2.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "daemon/git/file_state.hpp"
#include "daemon/git/git_index_file.hpp"
#include "daemon/git/git_tree_memo.hpp"
#include "daemon/git/snapshot_control.hpp"
#include "daemon/git/watch_ticket.hpp"

namespace mission::daemon::git {

// inotify watches added while directories are read (a watched tree): each
// before its directory is read, so that any change after the read is
// reported. Any thread.
class WatchAdder {
 public:
  WatchAdder(int inotify_fd, std::string root, std::size_t budget)
      : fd_(inotify_fd), root_(std::move(root)), budget_(budget) {}
  // Watches `relative` ("" for the root). False once watching has failed.
  bool add(const std::string& relative);
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  std::string failure() const;
  // The watches added, as (descriptor, relative directory).
  std::vector<std::pair<int, std::string>> take_added();

 private:
  void fail(std::string reason);
  int fd_;
  std::string root_;
  std::size_t budget_;
  std::atomic<std::size_t> used_{0};
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  std::string failure_;
  std::vector<std::pair<int, std::string>> added_;
};

// A tracked path whose work tree state is not the index's.
struct TrackedChange {
  FileState index, work_tree;
};

struct WorkTreeState {
  std::map<std::string, TrackedChange> tracked;  // index entries whose file changed or is gone
  std::map<std::string, FileState> untracked;    // untracked files that are not ignored
  // Tracked directories that are gone, or were reached through a symlink
  // put in their place: any watch added for them is not the tree's.
  std::vector<std::string> missing_dirs;
};

struct WorkTreePass {
  git_repository* repo;
  std::string root;  // absolute, no trailing '/'
  const IndexFile& index;
  SnapshotControl& control;
  const GitTreeMemo* previous;  // the tree's previous snapshot, or null
  GitTreeMemo& learned;         // gets files hashed and directories listed now
  WatchAdder* watches;          // null when the tree is not being watched
  SnapshotStats& stats;
};

// Throws MissionError (git_error, what the control throws).
WorkTreeState scan_work_tree(WorkTreePass& pass);

// The state of `relative` on disk now: absent, or its mode and blob id
// (filters applied; a symlink is its target). Reuses `previous`'s id when
// the stat data matches and was not racy; records what it hashed in
// `learned`. `st` is the file's lstat.
FileState work_tree_file_state(git_repository* repo, const std::string& root,
                               const std::string& relative, const struct stat& st,
                               SnapshotControl& control, const GitTreeMemo* previous,
                               GitTreeMemo& learned, SnapshotStats& stats);

// Untracked entries below the untracked directory `relative`, walked
// (watches added first when `watches` is set); ignored entries and nested
// repositories are left out.
void scan_untracked_directory(git_repository* repo, const std::string& root,
                              const std::string& relative, SnapshotControl& control,
                              const GitTreeMemo* previous, GitTreeMemo& learned,
                              WatchAdder* watches, SnapshotStats& stats,
                              std::map<std::string, FileState>& untracked);

// Whether libgit2's ignore rules ignore `relative`.
bool is_ignored(git_repository* repo, const std::string& relative);

// The file system of the tree trusts directory mtimes and inotify.
bool trusted_file_system(int root_fd);

}  // namespace mission::daemon::git
