#pragma once
// Persistence of workspaces (docs/adr/0019): git worktrees a workflow's
// tasks run in, and which task runs in which (tasks.workspace_id).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct WorkspaceRow {
  std::string id;
  std::string workflow_id;
  std::string path;
  std::string branch;
  std::optional<std::string> base_branch;
  std::optional<std::string> base_commit;
  std::string repository;  // the main work tree
  WorkspaceStatus status = WorkspaceStatus::active;
  std::optional<std::string> merge_commit;
  bool owned = false;  // made by mission, which removes it
  std::optional<std::string> execution_id;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  std::vector<std::string> task_ids;  // filled by find and page
};

class WorkspaceRepository {
 public:
  explicit WorkspaceRepository(Database& db) : db_(db) {}

  void insert(const WorkspaceRow& row);
  std::optional<WorkspaceRow> find(const std::string& id);
  std::optional<WorkspaceRow> find_by_path(const std::string& path);
  void set_status(const std::string& id, WorkspaceStatus status,
                  const std::optional<std::string>& merge_commit, std::int64_t now);
  // Runs `task_id` in the workspace (or in none).
  void assign(const std::string& task_id, const std::optional<std::string>& workspace_id);
  // The workspace a task runs in, if any.
  std::optional<WorkspaceRow> of_task(const std::string& task_id);
  // One page of a workflow's workspaces (all workflows when empty), in the
  // given statuses (any when empty); positions are rowids.
  Page<WorkspaceRow> page(const std::optional<std::string>& workflow_id,
                          const std::vector<WorkspaceStatus>& statuses, const PageRequest& request);
  // Every workspace in `statuses`, of one workflow or all, oldest first.
  std::vector<WorkspaceRow> in_statuses(const std::optional<std::string>& workflow_id,
                                        const std::vector<WorkspaceStatus>& statuses);

 private:
  void fill_tasks(WorkspaceRow& row);
  Database& db_;
};

}  // namespace mission::store
