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
  std::optional<std::string> claimed_by;  // the execution holding its claim
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

// A task free to start, as workflow_next_tasks ranks it.
struct ReadyTask {
  Node node = 0;
  std::uint32_t critical_path_length = 0;  // the longest remaining chain through it
  bool recommended = false;                // fits beside the active tasks
  std::string held_back;                   // why not recommended
};

struct ReadyRanking {
  std::vector<ReadyTask> ready;  // best first
  std::size_t in_progress = 0;   // tasks in progress
  std::size_t claimed = 0;       // tasks claimed and not yet started
  std::size_t finished = 0;      // tasks done
  std::size_t recommended = 0;
};

// The ranking behind workflow_next_tasks. Ready: pending (or failed, with
// include_failed), every prerequisite done, and not claimed. Ranked by the
// longest remaining chain, then plan order. `recommended` on those that fit
// beside the active tasks (in progress or claimed): max_parallel_tasks, and
// files_likely_affected that overlap no active or better-ranked
// recommended task.
ReadyRanking rank_ready(const PlanState& state, bool include_failed);

// workflow_next_tasks: rank_ready as the tool answers it, up to
// options.limit tasks.
nlohmann::json next_tasks(const PlanState& state, const NextTasksOptions& options, KeyStyle style);

// workflow_progress: counts by status, blocked tasks and their blockers,
// groups and sequences, and the time remaining estimated from the
// durations of finished tasks.
nlohmann::json progress(const PlanState& state, KeyStyle style);

// task_check_dependencies for `node`.
nlohmann::json check_dependencies(const PlanState& state, Node node, KeyStyle style);

}  // namespace mission::daemon::planning
