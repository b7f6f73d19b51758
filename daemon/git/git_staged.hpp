#pragma once
// What the index stages: the paths where it differs from HEAD's tree. The
// cache tree (the index's TREE extension) gives the tree id of every
// directory git has not invalidated since it last wrote the index; where
// that id is HEAD's, nothing below is staged and the directory is skipped
// without reading a tree object, as git's diff-index --cached does. After a
// commit the whole cache tree is valid, so an unchanged index costs one
// comparison of two ids.

#include <git2.h>

#include "daemon/git/git_index_file.hpp"
#include "daemon/git/git_tree_memo.hpp"

namespace mission::daemon::git {

// `head` may be null (an unborn branch). Submodules are absent on both
// sides. Throws MissionError git_error.
StagedMap staged_changes(git_repository* repo, git_tree* head, const IndexFile& index);

// The blob state of `path` in `tree` (absent when missing, a directory or a
// submodule; `tree` may be null).
FileState tree_state(git_tree* tree, const std::string& path);

// Calls `visit(path, state)` for every blob under `prefix` in `tree`
// (`prefix` a file: just that one).
void for_each_tree_file(git_repository* repo, git_tree* tree, const std::string& prefix,
                        const std::function<void(const std::string&, const FileState&)>& visit);

}  // namespace mission::daemon::git
