#pragma once
// A run's --gate (docs/adr/0041): a task's branch merged onto the
// integration branch's tip as it is now, the merge commit written but no
// ref moved, checked out into a scratch worktree where the gate command
// runs; only a pass moves the branch, by a compare and swap against the tip
// the gate saw. A verdict belongs to the merged tree's id: a tree already
// judged within the run is not judged again.
//
// The git work here blocks: call it on a pool thread.

#include <cstdint>
#include <string>

namespace mission::daemon::runs {

// A gate's scratch worktree: detached from every branch people use, on a
// branch of its own at the merge commit, beside the tasks' worktrees.
struct GateTree {
  std::string repository;
  std::string name;    // in .git/worktrees
  std::string branch;  // mission/gate/<run id>/<tree id>
  std::string path;
};

// Where the gate of `tree` (a merged tree's id) in run `run_id` is made.
GateTree gate_tree_for(const std::string& repository, const std::string& run_id,
                       const std::string& tree);

// Checks `commit` out at `gate.path` (what a killed daemon left there is
// replaced). Throws MissionError git_error.
void make_gate_tree(const GateTree& gate, const std::string& commit);

// Removes the worktree and its branch. What fails to go stays until the
// same tree is gated again: `mission workspaces clean` does not know gate
// worktrees (their branches are outside the workspaces' prefix).
void remove_gate_tree(const GateTree& gate) noexcept;

// What the gate's verdict on a tree is kept as, within a run.
struct GateVerdict {
  bool passed = false;
  std::string onto;    // the integration tip it was merged onto
  std::string reason;  // why it failed; empty when it passed
  std::string output;  // the tail of its output
};

// The reason of an attempt whose merged tree failed the gate, naming what
// it was merged with, in the words of the agent that reads it next.
std::string gate_failure_reason(const GateVerdict& verdict, const std::string& into,
                                const std::string& tree, bool judged_before);

}  // namespace mission::daemon::runs
