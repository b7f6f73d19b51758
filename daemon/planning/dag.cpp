#include "daemon/planning/dag.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::planning {

Dag::Dag(std::vector<std::int64_t> sequences, std::vector<std::vector<Node>> depends_on)
    : sequences_(std::move(sequences)),
      prerequisites_(sequences_.size()),
      dependents_(sequences_.size()),
      explicit_(sequences_.size(), false) {
  const std::size_t n = sequences_.size();
  // Nodes by sequence, for the implied edges.
  std::map<std::int64_t, std::vector<Node>> by_sequence;
  for (Node node = 0; node < n; ++node) by_sequence[sequences_[node]].push_back(node);
  for (Node node = 0; node < n; ++node) {
    std::vector<Node>& prerequisites = prerequisites_[node];
    if (node < depends_on.size() && !depends_on[node].empty()) {
      explicit_[node] = true;
      prerequisites = depends_on[node];
    } else {
      auto stage = by_sequence.find(sequences_[node]);
      if (stage != by_sequence.begin()) prerequisites = std::prev(stage)->second;
    }
    std::sort(prerequisites.begin(), prerequisites.end());
    prerequisites.erase(std::unique(prerequisites.begin(), prerequisites.end()),
                        prerequisites.end());
    for (Node prerequisite : prerequisites) dependents_[prerequisite].push_back(node);
    edges_ += prerequisites.size();
  }
}

std::optional<std::vector<Node>> Dag::find_cycle() const {
  // Iterative depth-first search, colouring nodes white, grey (on the
  // stack) and black; a grey node reached again closes a cycle.
  enum : std::uint8_t { white, grey, black };
  std::vector<std::uint8_t> colour(size(), white);
  std::vector<std::pair<Node, std::size_t>> stack;
  for (Node start = 0; start < size(); ++start) {
    if (colour[start] != white) continue;
    stack.push_back({start, 0});
    colour[start] = grey;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == prerequisites_[node].size()) {
        colour[node] = black;
        stack.pop_back();
        continue;
      }
      Node to = prerequisites_[node][next++];
      if (colour[to] == grey) {
        // The stack holds the path from `to` to `node`; the cycle reads in
        // dependency order: `to` depends on ... depends on `node`... so it
        // is reported as written in the plan: node depends on to.
        std::vector<Node> cycle;
        auto from = std::find_if(stack.begin(), stack.end(),
                                 [&](const auto& entry) { return entry.first == to; });
        for (auto it = from; it != stack.end(); ++it) cycle.push_back(it->first);
        cycle.push_back(to);
        return cycle;
      }
      if (colour[to] == white) {
        colour[to] = grey;
        stack.push_back({to, 0});
      }
    }
  }
  return std::nullopt;
}

std::vector<Node> Dag::ancestors(Node node) const {
  std::vector<bool> seen(size(), false);
  std::vector<Node> pending{node};
  std::vector<Node> out;
  while (!pending.empty()) {
    Node current = pending.back();
    pending.pop_back();
    for (Node prerequisite : prerequisites_[current]) {
      if (seen[prerequisite]) continue;
      seen[prerequisite] = true;
      out.push_back(prerequisite);
      pending.push_back(prerequisite);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint32_t> Dag::remaining_chain(const std::vector<bool>& done) const {
  // Kahn's order over dependents, then lengths from the sinks back.
  const std::size_t n = size();
  std::vector<std::uint32_t> indegree(n, 0);
  for (Node node = 0; node < n; ++node)
    indegree[node] = static_cast<std::uint32_t>(prerequisites_[node].size());
  std::vector<Node> order;
  order.reserve(n);
  for (Node node = 0; node < n; ++node) {
    if (indegree[node] == 0) order.push_back(node);
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (Node dependent : dependents_[order[i]]) {
      if (--indegree[dependent] == 0) order.push_back(dependent);
    }
  }
  std::vector<std::uint32_t> chain(n, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node node = *it;
    if (done[node]) continue;
    std::uint32_t longest = 0;
    for (Node dependent : dependents_[node]) longest = std::max(longest, chain[dependent]);
    chain[node] = longest + 1;
  }
  return chain;
}

std::string describe_cycle(std::span<const Node> cycle, std::span<const PlanEntry> entries) {
  std::string out;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (i > 0) out += " -> ";
    out += entries[cycle[i]].name;
  }
  return out;
}

Dag resolve_plan(std::span<const PlanEntry> entries) {
  if (entries.size() > limits::kMaxPlanTasks) {
    throw MissionError(ErrorCode::payload_too_large,
                       "the plan has " + std::to_string(entries.size()) + " tasks, more than " +
                           std::to_string(limits::kMaxPlanTasks),
                       "split the work into several workflows", {{"field", "plan.tasks"}});
  }
  std::unordered_map<std::string_view, Node> by_name;
  by_name.reserve(entries.size());
  for (Node node = 0; node < entries.size(); ++node) {
    if (!by_name.emplace(entries[node].name, node).second) {
      throw MissionError(ErrorCode::invalid_argument,
                         "two tasks of the plan are named '" + entries[node].name + "'",
                         "give every task a distinct name: depends_on refers to tasks by name",
                         {{"field", "plan.tasks"}, {"name", entries[node].name}});
    }
  }
  std::vector<std::vector<Node>> depends_on(entries.size());
  std::size_t edges = 0;
  for (Node node = 0; node < entries.size(); ++node) {
    for (const std::string& name : entries[node].depends_on) {
      auto found = by_name.find(name);
      if (found == by_name.end()) {
        throw MissionError(
            ErrorCode::invalid_argument,
            "task '" + entries[node].name + "' depends on '" + name +
                "', which is not a task of the plan",
            "name a task of this plan in depends_on, or add the task",
            {{"field", "plan.tasks.depends_on"}, {"task", entries[node].name}, {"unknown", name}});
      }
      if (found->second == node) {
        throw MissionError(
            ErrorCode::invalid_argument, "task '" + name + "' depends on itself",
            "remove its own name from its depends_on",
            {{"field", "plan.tasks.depends_on"}, {"task", name}, {"cycle", {name, name}}});
      }
      depends_on[node].push_back(found->second);
    }
    edges += depends_on[node].size();
  }
  if (edges > limits::kMaxPlanEdges) {
    throw MissionError(ErrorCode::payload_too_large,
                       "the plan has " + std::to_string(edges) + " dependencies, more than " +
                           std::to_string(limits::kMaxPlanEdges),
                       "split the work into several workflows",
                       {{"field", "plan.tasks.depends_on"}});
  }
  std::vector<std::int64_t> sequences;
  sequences.reserve(entries.size());
  for (const auto& entry : entries) sequences.push_back(entry.sequence);
  Dag dag(std::move(sequences), std::move(depends_on));
  if (auto cycle = dag.find_cycle()) {
    // find_cycle walks prerequisites, so each name depends on the next.
    nlohmann::json names = nlohmann::json::array();
    for (Node node : *cycle) names.push_back(entries[node].name);
    throw MissionError(
        ErrorCode::invalid_argument,
        "the plan's dependencies form a cycle: " + describe_cycle(*cycle, entries) +
            " (each depends on the next)",
        "remove one depends_on of the cycle; a task without depends_on waits for the "
        "previous sequence, so check the sequences too",
        {{"field", "plan.tasks.depends_on"}, {"cycle", std::move(names)}});
  }
  return dag;
}

}  // namespace mission::daemon::planning
