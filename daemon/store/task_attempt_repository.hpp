#pragma once
// Persistence of the attempts a coordinating agent starts on tasks through
// the control toolset (docs/adr/0025; migration 11).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"

namespace mission::store {

struct TaskAttemptRow {
  std::string id;
  std::string task_id;
  std::string coordinator_id;
  std::string executor;        // the adapter
  std::string command = "[]";  // JSON array: the words before the prompt
  std::optional<std::string> workspace_id;
  std::string worktree;
  std::string branch;
  std::string base_commit;
  std::optional<std::string> execution_id;  // the latest turn's agent
  std::int64_t turns = 0;
  std::optional<std::string> queued_prompt;  // the next turn's, waiting for no live turn
  std::optional<std::string> launch_error;   // why the latest turn could not launch
  bool stopped = false;                      // stop_attempt: no further turn launches by itself
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

class TaskAttemptRepository {
 public:
  explicit TaskAttemptRepository(Database& db) : db_(db) {}

  void insert(const TaskAttemptRow& row);
  void update(const TaskAttemptRow& row);
  std::optional<TaskAttemptRow> find(const std::string& id);
  // The attempt whose latest turn `execution_id` runs.
  std::optional<TaskAttemptRow> of_execution(const std::string& execution_id);
  // A task's attempts, newest first, a page at a time.
  Page<TaskAttemptRow> of_task(const std::string& task_id, const PageRequest& page);
  std::int64_t count_of_task(const std::string& task_id);
  // Attempts with a queued prompt: at start-up, their next turns launch.
  std::vector<TaskAttemptRow> queued();

 private:
  Database& db_;
};

}  // namespace mission::store
