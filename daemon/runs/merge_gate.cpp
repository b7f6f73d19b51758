#include "daemon/runs/merge_gate.hpp"

#include <filesystem>
#include <system_error>

#include "daemon/git/worktrees.hpp"
#include "daemon/workspaces/workspaces.hpp"

namespace mission::daemon::runs {

GateTree gate_tree_for(const std::string& repository, const std::string& run_id,
                       const std::string& tree) {
  GateTree gate;
  gate.repository = repository;
  const std::string tag = run_id + "-" + tree.substr(0, 12);
  gate.name = "gate-" + tag;
  gate.branch = "mission/gate/" + run_id + "/" + tree.substr(0, 12);
  gate.path = repository + std::string(workspaces::kWorktreeFolderSuffix) + "/" + gate.name;
  return gate;
}

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
