#include "daemon/planning/plan_state.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "shared/limits.hpp"

namespace mission::daemon::planning {

void PlanState::index() {
  by_id.clear();
  by_id.reserve(tasks.size());
  for (Node node = 0; node < tasks.size(); ++node) by_id.emplace(tasks[node].id, node);
}

std::optional<Node> PlanState::node_of(const std::string& task_id) const {
  auto found = by_id.find(task_id);
  if (found == by_id.end()) return std::nullopt;
  return found->second;
}

std::string_view seed_task_status(TaskStatus status, bool prerequisites_done) {
  switch (status) {
    case TaskStatus::pending:
      return prerequisites_done ? "ready" : "pending";
    case TaskStatus::in_progress:
      return "in_progress";
    case TaskStatus::success:
    case TaskStatus::partial_success:
      return "completed";
    case TaskStatus::failed:
      return "failed";
    case TaskStatus::skipped:
      return "skipped";
  }
  return "pending";
}

std::string_view seed_workflow_status(MissionStatus status) {
  switch (status) {
    case MissionStatus::blocked:
      return "in_progress";
    case MissionStatus::partial:
      return "completed";
    case MissionStatus::pending:
      return "ready";
    default:
      return name_of(status);
  }
}

bool prerequisites_done(const PlanState& state, Node node) {
  for (Node prerequisite : state.dag.prerequisites(node)) {
    if (!is_done(state.tasks[prerequisite].status)) return false;
  }
  return true;
}

namespace {

bool overlaps(const std::vector<std::string>& a, const std::set<std::string_view>& taken) {
  for (const auto& path : a) {
    if (taken.count(path) != 0) return true;
  }
  return false;
}

}  // namespace

ReadyRanking rank_ready(const PlanState& state, bool include_failed) {
  ReadyRanking out;
  const std::size_t n = state.tasks.size();
  std::vector<bool> done(n, false);
  std::set<std::string_view> busy_files;
  for (Node node = 0; node < n; ++node) {
    const PlanTask& task = state.tasks[node];
    done[node] = is_done(task.status);
    if (done[node]) ++out.finished;
    // A claimed task is taken even before it starts: its agent works on it.
    const bool active = task.status == TaskStatus::in_progress ||
                        (task.claimed_by &&
                         (task.status == TaskStatus::pending || task.status == TaskStatus::failed));
    if (!active) continue;
    if (task.status == TaskStatus::in_progress) {
      ++out.in_progress;
    } else {
      ++out.claimed;
    }
    for (const auto& path : task.files) busy_files.insert(path);
  }
  for (Node node = 0; node < n; ++node) {
    const PlanTask& task = state.tasks[node];
    const bool offered =
        !task.claimed_by && (task.status == TaskStatus::pending ||
                             (include_failed && task.status == TaskStatus::failed));
    if (offered && prerequisites_done(state, node)) out.ready.push_back({node, 0, false, {}});
  }
  if (out.ready.empty()) return out;
  std::vector<std::uint32_t> chain = state.dag.remaining_chain(done);
  for (ReadyTask& task : out.ready) task.critical_path_length = chain[task.node];
  std::stable_sort(out.ready.begin(), out.ready.end(), [](const ReadyTask& a, const ReadyTask& b) {
    if (a.critical_path_length != b.critical_path_length)
      return a.critical_path_length > b.critical_path_length;
    return a.node < b.node;
  });
  const std::size_t active = out.in_progress + out.claimed;
  const std::size_t slots = state.max_parallel_tasks > static_cast<std::int64_t>(active)
                                ? static_cast<std::size_t>(state.max_parallel_tasks) - active
                                : 0;
  for (ReadyTask& ready : out.ready) {
    const PlanTask& task = state.tasks[ready.node];
    if (out.recommended == slots) {
      ready.held_back = active > 0
                            ? "max_parallel_tasks reached with the tasks in progress or claimed"
                            : "max_parallel_tasks reached";
    } else if (overlaps(task.files, busy_files)) {
      ready.held_back = "files_likely_affected overlap a task in progress, claimed or recommended";
    } else {
      ready.recommended = true;
      ++out.recommended;
      for (const auto& path : task.files) busy_files.insert(path);
    }
  }
  return out;
}

nlohmann::json next_tasks(const PlanState& state, const NextTasksOptions& options, KeyStyle style) {
  const std::size_t n = state.tasks.size();
  ReadyRanking ranking = rank_ready(state, options.include_failed);
  const std::size_t limit =
      options.limit == 0 ? limits::kMaxNextTasks : std::min(options.limit, limits::kMaxNextTasks);
  // Members of each parallel group among the ready tasks.
  std::map<std::string_view, std::vector<Node>> groups;
  for (const ReadyTask& ready : ranking.ready) {
    const PlanTask& task = state.tasks[ready.node];
    if (task.parallel_group) groups[*task.parallel_group].push_back(ready.node);
  }
  nlohmann::json tasks = nlohmann::json::array();
  std::size_t tasks_bytes = 0;
  for (const ReadyTask& ready : ranking.ready) {
    if (tasks.size() == limit) break;
    const Node node = ready.node;
    const PlanTask& task = state.tasks[node];
    nlohmann::json parallel_with = nlohmann::json::array();
    if (task.parallel_group) {
      for (Node other : groups[*task.parallel_group]) {
        if (other != node) parallel_with.push_back(state.tasks[other].id);
      }
    }
    nlohmann::json completed = nlohmann::json::array();
    for (Node prerequisite : state.dag.prerequisites(node))
      completed.push_back(state.tasks[prerequisite].id);
    nlohmann::json entry = {{key(style, "id"), task.id},
                            {key(style, "name"), task.name},
                            {key(style, "description"), task.description},
                            {key(style, "status"), seed_task_status(task.status, true)},
                            {key(style, "sequence"), task.sequence},
                            {key(style, "can_parallelize"), task.parallel_group.has_value()},
                            {key(style, "parallel_with"), std::move(parallel_with)},
                            {key(style, "dependencies_completed"), std::move(completed)},
                            {key(style, "critical_path_length"), ready.critical_path_length},
                            {key(style, "recommended"), ready.recommended}};
    if (!ready.held_back.empty()) entry[key(style, "held_back")] = ready.held_back;
    tasks_bytes += entry.dump().size() + 1;
    if (tasks_bytes > limits::kMaxNextTasksBytes && !tasks.empty()) break;
    tasks.push_back(std::move(entry));
  }
  return {{key(style, "workflow_id"), state.workflow_id},
          {key(style, "tasks"), std::move(tasks)},
          {key(style, "available_count"), ranking.ready.size()},
          {key(style, "in_progress_count"), ranking.in_progress},
          {key(style, "claimed_count"), ranking.claimed},
          {key(style, "max_parallel"), state.max_parallel_tasks},
          {key(style, "recommended_count"), ranking.recommended},
          {key(style, "workflow_status"), seed_workflow_status(state.workflow_status)},
          {key(style, "all_complete"), n > 0 && ranking.finished == n}};
}

nlohmann::json progress(const PlanState& state, KeyStyle style) {
  const std::size_t n = state.tasks.size();
  std::map<std::string, std::int64_t> by_status = {{"pending", 0},     {"ready", 0},
                                                   {"in_progress", 0}, {"completed", 0},
                                                   {"failed", 0},      {"skipped", 0}};
  nlohmann::json blocked = nlohmann::json::array();
  std::size_t blocked_total = 0;
  struct Tally {
    std::int64_t count = 0;
    std::int64_t done = 0;
  };
  std::map<std::string, Tally> groups;
  std::map<std::int64_t, Tally> sequences;
  std::int64_t finished_ms = 0;
  std::int64_t finished_timed = 0;
  std::size_t remaining = 0;
  for (Node node = 0; node < n; ++node) {
    const PlanTask& task = state.tasks[node];
    const bool ready = task.status == TaskStatus::pending && prerequisites_done(state, node);
    ++by_status[std::string(seed_task_status(task.status, ready))];
    const bool done = is_done(task.status);
    if (!done) ++remaining;
    if (task.parallel_group) {
      Tally& tally = groups[*task.parallel_group];
      ++tally.count;
      if (done) ++tally.done;
    }
    Tally& stage = sequences[task.sequence];
    ++stage.count;
    if (done) ++stage.done;
    if (done && task.started_at && task.completed_at && *task.completed_at >= *task.started_at) {
      finished_ms += *task.completed_at - *task.started_at;
      ++finished_timed;
    }
    if (task.status == TaskStatus::pending && !ready) {
      ++blocked_total;
      if (blocked.size() < limits::kMaxBlockedShown) {
        nlohmann::json by = nlohmann::json::array();
        for (Node prerequisite : state.dag.prerequisites(node)) {
          if (is_done(state.tasks[prerequisite].status)) continue;
          if (by.size() == limits::kMaxBlockersShown) break;
          by.push_back(state.tasks[prerequisite].name);
        }
        blocked.push_back({{key(style, "id"), task.id},
                           {key(style, "name"), task.name},
                           {key(style, "blocked_by"), std::move(by)}});
      }
    }
  }
  // completed_sequence: the highest sequence up to which every task is
  // done; current_sequence: the lowest with a task not done.
  std::optional<std::int64_t> completed_sequence;
  std::optional<std::int64_t> current_sequence;
  for (const auto& [sequence, tally] : sequences) {
    if (tally.done == tally.count && !current_sequence) {
      completed_sequence = sequence;
    } else if (!current_sequence) {
      current_sequence = sequence;
    }
  }
  nlohmann::json group_list = nlohmann::json::array();
  for (const auto& [group, tally] : groups) {
    if (group_list.size() == limits::kMaxGroupsShown) break;
    group_list.push_back({{key(style, "group_id"), group},
                          {key(style, "task_count"), tally.count},
                          {key(style, "completed"), tally.done}});
  }
  nlohmann::json sequence_list = nlohmann::json::array();
  for (const auto& [sequence, tally] : sequences) {
    if (sequence_list.size() == limits::kMaxGroupsShown) break;
    sequence_list.push_back({{key(style, "sequence"), sequence},
                             {key(style, "task_count"), tally.count},
                             {key(style, "completed"), tally.done}});
  }
  nlohmann::json status_counts = nlohmann::json::object();
  for (const auto& [name, count] : by_status) status_counts[name] = count;
  // The estimate: the mean duration of the finished tasks that have one,
  // times the tasks left, over the tasks that may run at once.
  nlohmann::json estimate = nullptr;
  if (finished_timed > 0) {
    const double mean_ms = static_cast<double>(finished_ms) / static_cast<double>(finished_timed);
    const double parallel =
        static_cast<double>(std::max<std::int64_t>(1, state.max_parallel_tasks));
    estimate = static_cast<std::int64_t>(
        mean_ms * static_cast<double>(remaining) / parallel / 1000.0 + 0.5);
  }
  return {{key(style, "workflow_id"), state.workflow_id},
          {key(style, "workflow_status"), seed_workflow_status(state.workflow_status)},
          {key(style, "total_tasks"), n},
          {key(style, "by_status"), std::move(status_counts)},
          {key(style, "completed_sequence"),
           completed_sequence ? nlohmann::json(*completed_sequence) : nlohmann::json()},
          {key(style, "current_sequence"),
           current_sequence ? nlohmann::json(*current_sequence) : nlohmann::json()},
          {key(style, "blocked_tasks"), std::move(blocked)},
          {key(style, "blocked_count"), blocked_total},
          {key(style, "parallel_groups"), std::move(group_list)},
          {key(style, "sequences"), std::move(sequence_list)},
          {key(style, "estimated_remaining"), std::move(estimate)},
          {key(style, "estimate_basis"), finished_timed}};
}

nlohmann::json check_dependencies(const PlanState& state, Node node, KeyStyle style) {
  nlohmann::json pending = nlohmann::json::array();
  nlohmann::json completed = nlohmann::json::array();
  for (Node prerequisite : state.dag.prerequisites(node)) {
    const PlanTask& task = state.tasks[prerequisite];
    const bool ready =
        task.status == TaskStatus::pending && prerequisites_done(state, prerequisite);
    if (is_done(task.status)) {
      completed.push_back({{key(style, "id"), task.id},
                           {key(style, "name"), task.name},
                           {key(style, "outcome"),
                            task.outcome_summary ? nlohmann::json(*task.outcome_summary)
                                                 : nlohmann::json(std::string(
                                                       seed_task_status(task.status, ready)))}});
    } else {
      pending.push_back({{key(style, "id"), task.id},
                         {key(style, "name"), task.name},
                         {key(style, "status"), seed_task_status(task.status, ready)}});
    }
  }
  return {{key(style, "task_id"), state.tasks[node].id},
          {key(style, "satisfied"), pending.empty()},
          {key(style, "implied_by_sequence"),
           !state.dag.has_explicit(node) && !state.dag.prerequisites(node).empty()},
          {key(style, "pending"), std::move(pending)},
          {key(style, "completed"), std::move(completed)}};
}

}  // namespace mission::daemon::planning
