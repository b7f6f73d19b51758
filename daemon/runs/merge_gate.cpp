#include "daemon/runs/merge_gate.hpp"

#include <filesystem>
#include <string>
#include <system_error>

#include "daemon/git/worktrees.hpp"
#include "daemon/workspaces/workspaces.hpp"

namespace mission::daemon::runs {

GateTree gate_tree_for(const std::string& repository, const std::string& run_id, std::size_t slot) {
  GateTree gate;
  gate.repository = repository;
  gate.name = std::string(workspaces::kGateWorktreePrefix) + run_id + "-" + std::to_string(slot);
  gate.branch = std::string(workspaces::kGateBranchPrefix) + run_id + "/" + std::to_string(slot);
  gate.path = repository + std::string(workspaces::kWorktreeFolderSuffix) + "/" + gate.name;
  return gate;
}

namespace {

// A full checkout of `commit`, replacing what a killed daemon or a failed
// move left there.
void make_gate_tree(const GateTree& gate, const std::string& commit) {
  remove_gate_tree(gate);
  git::WorktreeSpec spec;
  spec.repository = gate.repository;
  spec.path = gate.path;
  spec.branch = gate.branch;
  spec.base = commit;
  spec.name = gate.name;
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(gate.path).parent_path(), ignored);
  git::add_worktree(spec);
}

bool gate_tree_exists(const GateTree& gate) {
  std::error_code ignored;
  return std::filesystem::exists(std::filesystem::path(gate.path) / ".git", ignored);
}

}  // namespace

bool ensure_gate_tree(const GateTree& gate, const std::string& commit) {
  if (gate_tree_exists(gate)) return false;
  make_gate_tree(gate, commit);
  return true;
}

void move_gate_tree(const GateTree& gate, const std::string& commit, bool known_clean) {
  if (gate_tree_exists(gate)) {
    try {
      git::move_worktree(gate.path, commit, known_clean);
      return;
    } catch (const std::exception&) {
      // Unregistered, half made by a killed daemon, or not writable as it
      // is: made again below.
    }
  }
  make_gate_tree(gate, commit);
}

void remove_gate_tree(const GateTree& gate) noexcept {
  try {
    git::remove_worktree(gate.repository, gate.name, gate.branch, true);
  } catch (const std::exception&) {
  }
  std::error_code ignored;
  std::filesystem::remove_all(gate.path, ignored);
}

std::string gate_failure_reason(const GateVerdict& verdict, const std::string& into,
                                const std::string& tree, bool judged_before) {
  std::string out = "--gate failed on your branch merged onto " + into + " at " +
                    verdict.onto.substr(0, 12) + " (tree " + tree.substr(0, 12) + "): ";
  out += verdict.reason;
  if (judged_before) out += " (this same tree failed the gate before; it was not run again)";
  out += ". Make your change work with what " + into + " holds now.";
  return out;
}

}  // namespace mission::daemon::runs
