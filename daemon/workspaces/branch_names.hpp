#pragma once
// Which branch names an agent may give a workspace (workspace_create's
// `branch`): git's own rules for a branch (git check-ref-format --branch),
// and none that another ref, or mission, would read as its own.

#include <string>
#include <string_view>

namespace mission::daemon::workspaces {

// Branches mission makes itself live under this prefix (workspaces'
// mission/ws-.../work, runs' mission/run/<workflow>): no agent names one there.
inline constexpr std::string_view kMissionBranchPrefix = "mission/";

// The last component of a workspace's own branch, mission/<id>/work: each
// branch in a folder of its own, so a confined agent's rule on the folder
// of its ref (the kernel's rules name folders, docs/adr/0036) opens its own
// branch and no other, neither a sibling's nor a run's integration branch.
inline constexpr std::string_view kWorkspaceBranchLeaf = "work";

// Why `name` may not be an agent's branch, or empty when it may. The rule
// is git's (no "..", no component starting with "." or ending ".lock", no
// control characters, space, ~ ^ : ? * [ \, no "@{", not "@", no leading
// "-" or "/", no trailing "/" or ".", no "//"), plus names that would
// shadow or pose as other refs: refs/..., heads/..., tags/...,
// remotes/..., HEAD and the other *_HEAD files, and mission's own prefix.
// A name starting with a remote's name is refused where the repository is
// known (git_worktrees.cpp).
std::string branch_name_problem(std::string_view name);

}  // namespace mission::daemon::workspaces
