#pragma once
// Exact change sets for tasks: a snapshot when a task starts, and later the
// set of files whose state differs from that snapshot, plus a check of that
// set against the task's declared areas.
//
// A file's state is its (mode, content) in the working tree, or absent. The
// change set is every path whose state at the snapshot differs from its state
// now, whatever happened in between: commits (amended, rebased or reset ones
// included) count by what they change, an edit reverted to the start content
// does not count, and a file already dirty at the start counts only if it
// changed again. Inside a git work tree the states come from libgit2 (ignored
// files and submodules never count); elsewhere from a checksum snapshot of
// the directory (see checksum_snapshot.hpp for its file limit and stat rule,
// checksum_walk.hpp for the directories it skips). Scope verification
// follows the rule in scope_rule.hpp.
//
// Everything here blocks on the file system: call it off the event loop. The
// functions are safe to call from several threads at once and open their
// own repository handle on each call. What a snapshot learns about a tree
// (stat data, hashes, directory listings) is kept in memory for the next
// snapshot of the same tree, within limits::kMaxRememberedTrees; it only
// ever saves work, never changes a result. Each call is bounded by
// limits::kMaxSnapshotReadBytes and limits::kMaxSnapshotMs, and can be
// cancelled by cancel_running_snapshots().

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mission::daemon::git {

struct Snapshot {
  std::string type;  // "git" or "checksum"
  std::string id;    // git: the HEAD commit oid hex at start ("" on an unborn branch); checksum: a
                     // short digest of the snapshot
  std::string
      root;  // absolute path: the repository's work tree root (git) or the snapshot root (checksum)
  std::string
      data;  // serialized state needed later, opaque to the caller: text lines, no NUL, but file
             // names may bring any other byte (store as a BLOB, or TEXT bound with its length)
};

struct Rename {
  std::string from, to;
};

struct ChangeSet {
  std::vector<std::string> added, modified,
      deleted;                  // paths relative to root, '/'-separated, sorted, no duplicates
  std::vector<Rename> renamed;  // exact-content renames, sorted by `to`; their paths ALSO appear in
                                // deleted (from) and added (to)
};

struct WatchTicket;

// Snapshot of the tree containing `cwd` (an absolute directory): git when
// `cwd` is inside a git work tree, else a checksum snapshot rooted at `cwd`.
// `watch`, from the tree's watcher on the loop (tree_watch_service.hpp), lets
// a watched tree be looked at only where it changed; without it the whole
// tree is looked at. Throws MissionError: git_error (libgit2 failure),
// not_found (cwd missing), invalid_argument (cwd on a pseudo file system),
// payload_too_large (checksum tree over limits::kMaxChecksumFiles, or over
// the read or time bound), shutting_down (cancelled).
Snapshot take_snapshot(const std::string& cwd, WatchTicket* watch = nullptr);

// What changed between `start` and the tree as it is now. Same exceptions,
// plus invalid_argument for a snapshot whose type or data is not ours.
ChangeSet compute_change_set(const Snapshot& start, WatchTicket* watch = nullptr);

class SnapshotControl;
// The same, with bounds, cancellation and start time of the caller's own
// (snapshot_control.hpp) rather than the daemon's.
Snapshot take_snapshot(const std::string& cwd, WatchTicket* watch, SnapshotControl& control);
ChangeSet compute_change_set(const Snapshot& start, WatchTicket* watch, SnapshotControl& control);

// Cancels every snapshot and change set running now: each fails soon with
// shutting_down. Later calls run normally. Any thread.
void cancel_running_snapshots();

struct ScopeVerification {
  bool scope_match;
  std::vector<std::string> unexpected_files;
  std::vector<std::string> warnings;
};

// Compares `changes` with a task's `areas` by the rule in scope_rule.hpp.
ScopeVerification verify_scope(const ChangeSet& changes, const std::vector<std::string>& areas);

// {"added":[...],"modified":[...],"deleted":[...],"renamed":[{"from","to"}]}
nlohmann::json to_json(const ChangeSet& changes);
// {"scope_match","unexpected_files","warnings"}
nlohmann::json to_json(const ScopeVerification& verification);

}  // namespace mission::daemon::git
