#pragma once
// Persistence of tasks (the tasks table): what each task set out to do, the
// snapshot taken when it started, and what it reported and changed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

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
  std::string status;
  std::string snapshot_type;
  std::string snapshot_id;
  std::string snapshot_root;
  std::optional<std::string> outcome;        // JSON
  std::optional<std::string> metadata;       // JSON
  std::optional<std::string> files_changed;  // JSON
  std::optional<std::string> verification;   // JSON
  std::int64_t started_at = 0;
  std::optional<std::int64_t> completed_at;
};

class TaskRepository {
 public:
  explicit TaskRepository(Database& db) : db_(db) {}

  // `snapshot_data` is stored beside the row but never read back with it:
  // it can be megabytes (a checksum snapshot) and only complete_task needs it.
  void insert(const TaskRow& row, const std::string& snapshot_data);
  std::optional<TaskRow> find(const std::string& id);
  std::string snapshot_data(const std::string& id);
  // Writes status, outcome, metadata, files_changed, verification, completed_at.
  void complete(const TaskRow& row);
  // Oldest first.
  std::vector<TaskRow> list_for_mission(const std::string& mission_id);
  // Whether a task in progress took its snapshot of the tree at `root`.
  bool has_in_progress(const std::string& snapshot_root);

 private:
  Database& db_;
};

}  // namespace mission::store
