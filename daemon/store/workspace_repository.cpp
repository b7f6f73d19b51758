#include "daemon/store/workspace_repository.hpp"

#include <nlohmann/json.hpp>

namespace mission::store {
namespace {

constexpr const char* kSelect =
    "SELECT w.id, w.workflow_id, w.path, w.branch, w.base_branch, w.base_commit, w.repository, "
    "w.status, "
    "w.merge_commit, w.owned, w.execution_id, w.created_at, w.updated_at, w.rowid FROM workspaces "
    "w ";

WorkspaceRow read_row(const Statement& s) {
  WorkspaceRow row;
  row.id = s.text(0);
  row.workflow_id = s.text(1);
  row.path = s.text(2);
  row.branch = s.text(3);
  row.base_branch = s.optional_text(4);
  row.base_commit = s.optional_text(5);
  row.repository = s.text(6);
  row.status = s.name<WorkspaceStatus>(7);
  row.merge_commit = s.optional_text(8);
  row.owned = s.integer(9) != 0;
  row.execution_id = s.optional_text(10);
  row.created_at = s.integer(11);
  row.updated_at = s.integer(12);
  return row;
}

std::optional<std::string> status_list(const std::vector<WorkspaceStatus>& statuses) {
  if (statuses.empty()) return std::nullopt;
  nlohmann::json names = nlohmann::json::array();
  for (WorkspaceStatus status : statuses) names.push_back(std::string(name_of(status)));
  return names.dump();
}

}  // namespace

void WorkspaceRepository::insert(const WorkspaceRow& row) {
  auto s = db_.prepare(
      "INSERT INTO workspaces (id, workflow_id, path, branch, base_branch, base_commit, "
      "repository, status, "
      "merge_commit, owned, execution_id, created_at, updated_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)");
  s.bind(1, row.id)
      .bind(2, row.workflow_id)
      .bind(3, row.path)
      .bind(4, row.branch)
      .bind(5, row.base_branch);
  s.bind(6, row.base_commit).bind(7, row.repository).bind(8, row.status).bind(9, row.merge_commit);
  s.bind(10, static_cast<std::int64_t>(row.owned))
      .bind(11, row.execution_id)
      .bind(12, row.created_at);
  s.run();
}

void WorkspaceRepository::fill_tasks(WorkspaceRow& row) {
  auto s = db_.prepare("SELECT id FROM tasks WHERE workspace_id = ?1 ORDER BY rowid");
  s.bind(1, row.id);
  while (s.step()) row.task_ids.push_back(s.text(0));
}

std::optional<WorkspaceRow> WorkspaceRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE w.id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  WorkspaceRow row = read_row(s);
  fill_tasks(row);
  return row;
}

std::optional<WorkspaceRow> WorkspaceRepository::find_by_path(const std::string& path) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE w.path = ?1");
  s.bind(1, path);
  if (!s.step()) return std::nullopt;
  WorkspaceRow row = read_row(s);
  fill_tasks(row);
  return row;
}

void WorkspaceRepository::set_status(const std::string& id, WorkspaceStatus status,
                                     const std::optional<std::string>& merge_commit,
                                     std::int64_t now) {
  auto s = db_.prepare(
      "UPDATE workspaces SET status = ?2, merge_commit = coalesce(?3, merge_commit), updated_at = "
      "?4 WHERE id = ?1");
  s.bind(1, id).bind(2, status).bind(3, merge_commit).bind(4, now);
  s.run();
}

void WorkspaceRepository::assign(const std::string& task_id,
                                 const std::optional<std::string>& workspace_id) {
  auto s = db_.prepare("UPDATE tasks SET workspace_id = ?2 WHERE id = ?1");
  s.bind(1, task_id).bind(2, workspace_id);
  s.run();
}

std::optional<WorkspaceRow> WorkspaceRepository::of_task(const std::string& task_id) {
  auto s =
      db_.prepare(std::string(kSelect) + "JOIN tasks t ON t.workspace_id = w.id WHERE t.id = ?1");
  s.bind(1, task_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

Page<WorkspaceRow> WorkspaceRepository::page(const std::optional<std::string>& workflow_id,
                                             const std::vector<WorkspaceStatus>& statuses,
                                             const PageRequest& request) {
  auto s = db_.prepare(std::string(kSelect) +
                       "WHERE (?1 IS NULL OR w.workflow_id = ?1) AND "
                       "(?2 IS NULL OR w.status IN (SELECT value FROM json_each(?2)))" +
                       page_clause(request, "w.rowid", 3, 4));
  s.bind(1, workflow_id).bind(2, status_list(statuses)).bind(3, page_position(request));
  s.bind(4, static_cast<std::int64_t>(request.limit) + 1);
  Page<WorkspaceRow> page = read_page<WorkspaceRow>(s, request, 13, read_row);
  for (auto& row : page.rows) fill_tasks(row);
  return page;
}

std::vector<WorkspaceRow> WorkspaceRepository::in_statuses(
    const std::optional<std::string>& workflow_id, const std::vector<WorkspaceStatus>& statuses) {
  auto s =
      db_.prepare(std::string(kSelect) +
                  "WHERE (?1 IS NULL OR w.workflow_id = ?1) AND "
                  "(?2 IS NULL OR w.status IN (SELECT value FROM json_each(?2))) ORDER BY w.rowid");
  s.bind(1, workflow_id).bind(2, status_list(statuses));
  std::vector<WorkspaceRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  for (auto& row : rows) fill_tasks(row);
  return rows;
}

}  // namespace mission::store
