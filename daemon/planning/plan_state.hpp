#pragma once
// A planned workflow as the orchestration queries read it: its planned
// tasks in plan order, their DAG and its parallelism; and the queries
// themselves (workflow_next_tasks, workflow_progress,
// task_check_dependencies), pure functions of that state (docs/adr/0015).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/planning/dag.hpp"
#include "shared/key_style.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::planning {

struct PlanTask {
  std::string id;
  std::string name;
  std::string description;
  TaskStatus status = TaskStatus::pending;
  std::int64_t sequence = 0;
  std::optional<std::string> parallel_group;
  std::vector<std::string> files;  // files_likely_affected
  std::optional<std::string> outcome_summary;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> completed_at;
};

struct PlanState {
  std::string workflow_id;
  MissionStatus workflow_status = MissionStatus::planning;
  std::int64_t max_parallel_tasks = 1;
  std::vector<PlanTask> tasks;  // plan order: node i is tasks[i]
  Dag dag;
  std::unordered_map<std::string, Node> by_id;

  // Fills by_id from tasks.
  void index();
  std::optional<Node> node_of(const std::string& task_id) const;
};

// A task status in seed 003's words (docs/adr/0015): pending is "ready" when
// every prerequisite is done, success and partial_success are "completed".
std::string_view seed_task_status(TaskStatus status, bool prerequisites_done);
// A workflow status in seed 003's words: blocked is in_progress, partial
// is completed, pending is ready.
std::string_view seed_workflow_status(MissionStatus status);

// Whether every prerequisite of `node` is done.
bool prerequisites_done(const PlanState& state, Node node);

struct NextTasksOptions {
  bool include_failed = true;
  std::size_t limit = 0;  // 0: limits::kMaxNextTasks
};

// workflow_next_tasks: the ready tasks ranked by the longest remaining
// chain, then plan order; `recommended` on those that fit beside the
// tasks in progress (max_parallel_tasks, overlapping files).
nlohmann::json next_tasks(const PlanState& state, const NextTasksOptions& options, KeyStyle style);

// workflow_progress: counts by status, blocked tasks and their blockers,
// groups and sequences, and the time remaining estimated from the
// durations of finished tasks.
nlohmann::json progress(const PlanState& state, KeyStyle style);

// task_check_dependencies for `node`.
nlohmann::json check_dependencies(const PlanState& state, Node node, KeyStyle style);

}  // namespace mission::daemon::planning
