#pragma once
// A run's --gate (docs/adr/0041): a task's branch merged onto the
// integration branch's tip as it is now, the merge commit written but no
// ref moved, checked out into a scratch worktree where the gate command
// runs; only a pass moves the branch, by a compare and swap against the tip
// the gate saw. A verdict belongs to the merged tree's id: a tree already
// judged within the run is not judged again.
//
// The git work here blocks: call it on a pool thread.

#include <cstddef>
#include <cstdint>
#include <string>

namespace mission::daemon::runs {

// A gate's worktree: detached from every branch people use, on a branch
// of its own, beside the tasks' worktrees. A run keeps one for each gate
// it may run at once (--gate-parallel) and moves it from one merged tree
// to the next by writing only the files that differ: a gate's cost beyond
// its command follows the size of the change, not of the repository. The
// run removes them when it ends; `mission workspaces clean`, and a daemon
// starting, remove those of runs that have ended (a killed daemon's).
struct GateTree {
  std::string repository;
  std::string name;    // in .git/worktrees: gate-<run id>-<slot>
  std::string branch;  // mission/gate/<run id>/<slot>
  std::string path;
};

// The worktree of gate slot `slot` (0 .. --gate-parallel - 1) of run `run_id`.
GateTree gate_tree_for(const std::string& repository, const std::string& run_id, std::size_t slot);

// Makes the worktree at `commit` unless it is there: ahead of the run's
// first gate, while the agents work, the one full checkout a slot costs.
// Whether it made it (so it is known clean). Throws MissionError git_error.
bool ensure_gate_tree(const GateTree& gate, const std::string& commit);

// Brings the worktree to `commit` (the merge the gate judges), writing only
// what differs from the tree it holds. Unless `known_clean` (nothing ran in
// it since its last checkout), what the last gate wrote there is undone
// first. A worktree missing, or that cannot be moved, is made again.
// Throws MissionError git_error.
void move_gate_tree(const GateTree& gate, const std::string& commit, bool known_clean);

// Removes the worktree and its branch; what fails to go is left for
// `mission workspaces clean`.
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
