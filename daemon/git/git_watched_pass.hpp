#pragma once
// The snapshot of a watched tree (docs/adr/0013-watched-trees.md): the
// previous result, corrected at the paths the watcher saw change since,
// without reading the index or looking at the rest of the tree.
//
// It holds while the index file and HEAD are what the previous snapshot
// saw, and no ignore rule changed: then a path's index state is what the
// index stages for it, else HEAD's, and only paths below a changed path can
// differ. Each such path (those on disk now, those HEAD, the index or the
// previous dirty set know) gets its state again. Otherwise the caller takes
// a full snapshot.

#include <git2.h>

#include <optional>
#include <string>
#include <vector>

#include "daemon/git/git_tree_memo.hpp"
#include "daemon/git/git_work_tree.hpp"
#include "daemon/git/snapshot_control.hpp"

namespace mission::daemon::git {

struct WatchedPass {
  git_repository* repo;
  std::string root;
  git_tree* head_tree;  // may be null (unborn)
  std::string head_commit;
  IndexStamp index;            // the index file's stamp now
  std::string ignore_sources;  // the global ignore files' stamp now
  const std::vector<std::string>& changed;
  SnapshotControl& control;
  WatchAdder& watches;  // for directories created since
  SnapshotStats& stats;
};

// Updates `memo` (dirty set, learned files) and returns true; false, with
// `why` set and `memo` unchanged in its result, when a full snapshot is
// needed.
bool update_watched_state(WatchedPass& pass, GitTreeMemo& memo, std::string& why);

}  // namespace mission::daemon::git
