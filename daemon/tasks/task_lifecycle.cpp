#include "daemon/tasks/task_lifecycle.hpp"

#include <array>
#include <nlohmann/json.hpp>

#include "daemon/store/claim_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::tasks {

namespace {

// The status changes task_update_status may ask for, by target: from which
// statuses each is allowed, and what to say when it is not. Runs, retries
// and replans move tasks by their own operations (land, reset).
struct Rule {
  TaskStatus to;
  std::array<TaskStatus, 2> from;
  std::string_view refused;
};

constexpr Rule kStatusRules[] = {
    {TaskStatus::in_progress,
     {TaskStatus::pending, TaskStatus::failed},
     "only a pending or failed task starts"},
    {TaskStatus::success, {TaskStatus::pending, TaskStatus::in_progress}, "it has already ended"},
    {TaskStatus::failed, {TaskStatus::pending, TaskStatus::in_progress}, "it has already ended"},
    {TaskStatus::skipped,
     {TaskStatus::pending, TaskStatus::failed},
     "only a pending or failed task is skipped"},
    {TaskStatus::pending,
     {TaskStatus::failed, TaskStatus::failed},
     "only a failed task goes back to pending (a retry)"},
};

}  // namespace

std::optional<std::string_view> refusal(TaskStatus from, TaskStatus to) {
  for (const Rule& rule : kStatusRules) {
    if (rule.to != to) continue;
    if (from == rule.from[0] || from == rule.from[1]) return std::nullopt;
    return rule.refused;
  }
  return "no status change leads there";
}

bool TaskLifecycle::claim(const std::string& task_id, const std::string& execution_id,
                          std::int64_t now) {
  if (!store::ClaimRepository(db_).try_claim(task_id, execution_id, now)) return false;
  notify("task", task_id);
  return true;
}

void TaskLifecycle::hold_to_start(const std::string& task_id, const std::string& execution_id,
                                  std::int64_t now) {
  store::ClaimRepository(db_).hold_to_start(task_id, execution_id, now);
}

bool TaskLifecycle::release(const std::string& task_id, const std::string& execution_id,
                            const std::string& reason, const std::string& summary,
                            std::int64_t now) {
  if (!store::ClaimRepository(db_).release(task_id, execution_id, reason, summary, now)) {
    return false;
  }
  notify("task", task_id);
  return true;
}

void TaskLifecycle::start(store::PlannedTaskRow& task, const std::string& holder,
                          std::int64_t now) {
  // Whoever starts it holds it (docs/adr/0019).
  hold_to_start(task.id, holder, now);
  store::PlanRepository(db_).drop_snapshot(task.id);
  task.started_at = now;
  task.completed_at.reset();
  task.error.reset();
  write_status(task, TaskStatus::in_progress);
}

void TaskLifecycle::succeed(store::PlannedTaskRow& task, std::string outcome, std::int64_t now) {
  if (!task.started_at) task.started_at = now;
  task.completed_at = now;
  task.outcome = std::move(outcome);
  task.error.reset();
  write_status(task, TaskStatus::success);
}

void TaskLifecycle::fail(store::PlannedTaskRow& task, std::string error, std::int64_t now) {
  task.completed_at = now;
  task.error = std::move(error);
  write_status(task, TaskStatus::failed);
}

void TaskLifecycle::skip(store::PlannedTaskRow& task, std::int64_t now) {
  task.completed_at = now;
  write_status(task, TaskStatus::skipped);
}

void TaskLifecycle::reset(store::PlannedTaskRow& task) {
  task.started_at.reset();
  task.completed_at.reset();
  task.error.reset();
  write_status(task, TaskStatus::pending);
}

void TaskLifecycle::land(store::PlannedTaskRow& task, const std::string& merged, std::int64_t now) {
  // The outcome its agent reported stays; what landed it is added.
  nlohmann::json outcome =
      task.outcome ? nlohmann::json::parse(*task.outcome, nullptr, false) : nlohmann::json();
  if (!outcome.is_object()) outcome = {{"summary", merged}};
  outcome["merged"] = merged;
  succeed(task, outcome.dump(), now);
}

void TaskLifecycle::start_tracked(const store::TaskRow& row, bool planned,
                                  const std::string& snapshot_data, std::int64_t now) {
  store::TaskRepository tasks(db_);
  if (planned) {
    // A planned task: whoever starts it holds it, so it never stays in
    // progress once its execution has ended (docs/adr/0019).
    hold_to_start(row.id, row.execution_id.value_or(""), now);
    tasks.start_planned(row, snapshot_data);
    if (notify_) notify_("task", "updated", row.id);
  } else {
    tasks.insert(row, snapshot_data);
    if (notify_) notify_("task", "created", row.id);
  }
  workflow_follows(row.mission_id);
}

void TaskLifecycle::complete_tracked(const store::TaskRow& row) {
  store::TaskRepository(db_).complete(row);
  notify("task", row.id);
  workflow_follows(row.mission_id);
}

int TaskLifecycle::close_open(const std::string& mission_id, TaskStatus status, std::int64_t now) {
  return store::TaskRepository(db_).close_open_tasks(mission_id, status, now);
}

void TaskLifecycle::write_status(store::PlannedTaskRow& task, TaskStatus status) {
  task.status = status;
  store::PlanRepository(db_).set_task_status(task);
  notify("task", task.id);
  workflow_follows(task.mission_id);
}

void TaskLifecycle::workflow_follows(const std::string& workflow_id) {
  auto workflow = store::MissionRepository(db_).find(workflow_id);
  if (!workflow || workflow->kind != MissionKind::planned || is_final(workflow->status)) return;
  store::PlanRepository plans(db_);
  const store::PlanProgressCounts counts = plans.progress_counts(workflow_id);
  std::optional<MissionStatus> next;
  if (counts.total > 0 && counts.done == counts.total) {
    next = MissionStatus::completed;
  } else if (counts.running > 0 && (workflow->status == MissionStatus::ready ||
                                    workflow->status == MissionStatus::planning)) {
    next = MissionStatus::in_progress;
  }
  if (!next) return;
  plans.set_status(workflow_id, *next, std::nullopt, unix_ms_now());
  notify("mission", workflow_id);
}

void TaskLifecycle::notify(std::string_view kind, const std::string& id) const {
  if (notify_) notify_(kind, "updated", id);
}

}  // namespace mission::daemon::tasks
