#pragma once
// The one writer of a task's lifecycle (docs/adr/0047): its claim, its
// status and the fields that go with it, and the rule that a planned
// workflow follows its tasks. Planning (task_update_status, retry,
// replan), tracking (start_task, complete_task), coordination (claims) and
// runs (dispatch, landing, retry) all change a task through here, so a
// task started one way ends the other way with the same rules.
//
// It checks that a change is one the lifecycle allows (refusal()); who may
// make it (the task's writer, a prerequisite done, a workflow running) is
// the caller's question, asked in the words of its own surface.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/store/database.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::tasks {

// Tells the live events that a record changed: kind "task" or "mission",
// change "updated". Called inside the transaction; the caller publishes
// after commit. May be empty.
using Notify =
    std::function<void(std::string_view kind, std::string_view change, const std::string& id)>;

// Why the lifecycle does not let a task go from `from` to `to` by a status
// change (task_update_status), or nullopt when it may. Said of the task
// ("only a pending or failed task starts"), for the caller's own message.
std::optional<std::string_view> refusal(TaskStatus from, TaskStatus to);

class TaskLifecycle {
 public:
  TaskLifecycle(store::Database& db, Notify notify) : db_(db), notify_(std::move(notify)) {}

  // Claims (docs/adr/0019). True when `execution_id` now holds the task;
  // one statement, so exactly one of racing claimers wins.
  bool claim(const std::string& task_id, const std::string& execution_id, std::int64_t now);
  // Whoever starts a planned task holds it; throws already_claimed when
  // another execution does.
  void hold_to_start(const std::string& task_id, const std::string& execution_id, std::int64_t now);
  // Ends the claim `execution_id` holds: an in-progress task goes back to
  // pending, with a recovery checkpoint saying `summary`. False when that
  // execution held no claim.
  bool release(const std::string& task_id, const std::string& execution_id,
               const std::string& reason, const std::string& summary, std::int64_t now);

  // A status change of a planned task. `holder` starts it (and holds it);
  // a snapshot left by an ended start_task is dropped, so this start is a
  // new one that a status change also ends.
  void start(store::PlannedTaskRow& task, const std::string& holder, std::int64_t now);
  // Ended well, with `outcome` (JSON).
  void succeed(store::PlannedTaskRow& task, std::string outcome, std::int64_t now);
  void fail(store::PlannedTaskRow& task, std::string error, std::int64_t now);
  void skip(store::PlannedTaskRow& task, std::int64_t now);
  // Back to pending, its times and error cleared: a retry or a replan.
  void reset(store::PlannedTaskRow& task);
  // A run landed the task: success, with `merged` (what landed it) added to
  // the outcome its agent gave, if any.
  void land(store::PlannedTaskRow& task, const std::string& merged, std::int64_t now);

  // start_task: the task `row` starts with its snapshot. A planned one
  // (already in the plan) is held by `row`'s execution; any other is new.
  void start_tracked(const store::TaskRow& row, bool planned, const std::string& snapshot_data,
                     std::int64_t now);
  // complete_task: status, outcome, metadata and verification of `row`.
  void complete_tracked(const store::TaskRow& row);
  // complete_mission with open_tasks "close": the mission's tasks still in
  // progress end as `status`; the mission ends next, so nothing follows.
  // Returns how many were closed.
  int close_open(const std::string& mission_id, TaskStatus status, std::int64_t now);

 private:
  void write_status(store::PlannedTaskRow& task, TaskStatus status);
  // A planned workflow follows its tasks (docs/adr/0015): completed when
  // every planned task is done, in progress once one runs.
  void workflow_follows(const std::string& workflow_id);
  void notify(std::string_view kind, const std::string& id) const;

  store::Database& db_;
  Notify notify_;
};

}  // namespace mission::daemon::tasks
