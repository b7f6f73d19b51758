#pragma once
// The task DAG of a planned workflow (docs/adr/0015, "Sequence and
// depends_on"). Nodes are plan positions 0..n-1. A node's prerequisites
// are its depends_on edges when it has any; when it has none, every node of
// the greatest sequence strictly below its own. Pure data: no store.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mission::daemon::planning {

using Node = std::uint32_t;

// One task as a plan gives it, before its names are resolved.
struct PlanEntry {
  std::string name;
  std::int64_t sequence = 0;
  std::vector<std::string> depends_on;
};

class Dag {
 public:
  Dag() = default;
  // `sequences[i]` and the explicit `depends_on[i]` (nodes) of each node.
  Dag(std::vector<std::int64_t> sequences, std::vector<std::vector<Node>> depends_on);

  std::size_t size() const { return sequences_.size(); }
  std::int64_t sequence(Node node) const { return sequences_[node]; }
  // Explicit and implied prerequisites, without repeats.
  std::span<const Node> prerequisites(Node node) const { return prerequisites_[node]; }
  std::span<const Node> dependents(Node node) const { return dependents_[node]; }
  bool has_explicit(Node node) const { return explicit_[node]; }
  std::size_t edge_count() const { return edges_; }

  // A cycle as the nodes along it (first == last), or nullopt.
  std::optional<std::vector<Node>> find_cycle() const;
  // Every node `node` depends on, directly or not, in plan order.
  std::vector<Node> ancestors(Node node) const;
  // For each node not `done`, 1 + the longest chain of not-done dependents
  // after it (the critical path through it); 0 for done nodes. Requires no
  // cycle.
  std::vector<std::uint32_t> remaining_chain(const std::vector<bool>& done) const;

 private:
  std::vector<std::int64_t> sequences_;
  std::vector<std::vector<Node>> prerequisites_;
  std::vector<std::vector<Node>> dependents_;
  std::vector<bool> explicit_;
  std::size_t edges_ = 0;
};

// Resolves a plan's depends_on names to nodes and builds its DAG. Throws
// MissionError invalid_argument for a name given twice, a depends_on name
// no task has (naming it), a task depending on itself, or a cycle (naming
// it "a -> b -> a").
Dag resolve_plan(std::span<const PlanEntry> entries);

// "a -> b -> c -> a" for a cycle, with the names of `entries`.
std::string describe_cycle(std::span<const Node> cycle, std::span<const PlanEntry> entries);

}  // namespace mission::daemon::planning
