#pragma once
// Persistence of tasks (the tasks table): what each task set out to do, the
// snapshot taken when it started, what it reported, and (task_changes) each
// path it changed.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct TaskRow {
  std::string id;
  std::string mission_id;
  std::optional<std::string> phase_id;
  std::optional<std::int64_t> phase_number;  // read only: joined from phases
  std::optional<std::string> parent_task_id;
  std::optional<std::string> execution_id;
  std::optional<std::string> caller_type;
  std::optional<std::string> agent_name;
  std::string name;
  std::string goal;
  std::string areas = "[]";  // JSON array
  TaskStatus status = TaskStatus::in_progress;
  std::string snapshot_type;
  std::string snapshot_id;
  std::string snapshot_root;
  std::optional<std::string> outcome;       // JSON
  std::optional<std::string> metadata;      // JSON
  std::optional<std::string> verification;  // JSON {scope_match, warnings}
  std::int64_t started_at = 0;
  std::optional<std::int64_t> completed_at;
};

// One path a task changed.
struct ChangeRow {
  std::string change;  // added, modified, deleted or renamed
  std::string path;
  std::optional<std::string> old_path;  // renamed only
  bool in_scope = true;
};

struct ChangeCounts {
  std::int64_t added = 0;
  std::int64_t modified = 0;
  std::int64_t deleted = 0;
  std::int64_t renamed = 0;
  std::int64_t out_of_scope = 0;
  // Renames also count as an added and a deleted path (git::ChangeSet).
  std::int64_t total() const { return added + modified + deleted; }
};

struct TaskStatusCounts {
  std::int64_t total = 0;
  std::int64_t in_progress = 0;
  std::int64_t failed = 0;
};

class TaskRepository {
 public:
  explicit TaskRepository(Database& db) : db_(db) {}

  // `snapshot_data` is stored beside the row but never read back with it:
  // it can be megabytes (a checksum snapshot) and only complete_task needs it.
  void insert(const TaskRow& row, const std::string& snapshot_data);
  // A planned task starts (docs/adr/0015): status, snapshot, areas, agent
  // and start time of `row` written to the existing row.
  void start_planned(const TaskRow& row, const std::string& snapshot_data);
  std::optional<TaskRow> find(const std::string& id);
  std::string snapshot_data(const std::string& id);
  // Writes status, outcome, metadata, verification and completed_at, and
  // drops the snapshot data, which nothing needs once the task has ended.
  void complete(const TaskRow& row);
  // Records the task's change set, one row per path.
  void record_changes(const std::string& task_id, std::span<const ChangeRow> changes);

  // One page of a mission's tasks (positions: rowids, in start order).
  Page<TaskRow> page(const std::string& mission_id, const RecordFilter& filter,
                     const PageRequest& request);
  // One page of a task's changed paths (positions: task_changes ids);
  // `only_out_of_scope` keeps the paths outside its areas.
  Page<ChangeRow> changes(const std::string& task_id, const PageRequest& request,
                          bool only_out_of_scope = false);
  // The first `per_task` changed paths of each of `task_ids`, in one query.
  std::map<std::string, std::vector<ChangeRow>> first_changes(std::span<const std::string> task_ids,
                                                              std::size_t per_task);
  // Change counts of each of `task_ids`, in one query.
  std::map<std::string, ChangeCounts> change_counts(std::span<const std::string> task_ids);
  TaskStatusCounts status_counts(const std::string& mission_id);
  // Task counts of each phase of the mission.
  std::map<std::string, std::int64_t> tasks_per_phase(const std::string& mission_id);
  // Tasks still in progress in the mission (at most `limit`, oldest first).
  std::vector<TaskRow> open_tasks(const std::string& mission_id, std::size_t limit);
  // Ends every task of the mission still in progress as `status`.
  int close_open_tasks(const std::string& mission_id, TaskStatus status, std::int64_t now);
  // Whether a task in progress took its snapshot of the tree at `root`.
  bool has_in_progress(const std::string& snapshot_root);
  // Distinct paths the mission's tasks changed.
  std::int64_t distinct_changed_paths(const std::string& mission_id);

 private:
  Database& db_;
};

}  // namespace mission::store
