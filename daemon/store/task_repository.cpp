#include "daemon/store/task_repository.hpp"

#include <nlohmann/json.hpp>

#include "daemon/store/page.hpp"

namespace mission::store {
namespace {

constexpr const char* kSelect =
    "SELECT t.id, t.mission_id, t.phase_id, p.number, t.parent_task_id, t.execution_id, "
    "t.caller_type, t.agent_name, t.name, t.goal, t.areas, t.status, t.snapshot_type, "
    "t.snapshot_id, t.snapshot_root, t.outcome, t.metadata, t.verification, t.started_at, "
    "t.completed_at, t.rowid FROM tasks t LEFT JOIN phases p ON p.id = t.phase_id ";

TaskRow read_task(const Statement& s) {
  TaskRow row;
  row.id = s.text(0);
  row.mission_id = s.text(1);
  row.phase_id = s.optional_text(2);
  row.phase_number = s.optional_integer(3);
  row.parent_task_id = s.optional_text(4);
  row.execution_id = s.optional_text(5);
  row.caller_type = s.optional_text(6);
  row.agent_name = s.optional_text(7);
  row.name = s.text(8);
  row.goal = s.text(9);
  row.areas = s.text(10);
  row.status = s.name<TaskStatus>(11);
  row.snapshot_type = s.text(12);
  row.snapshot_id = s.text(13);
  row.snapshot_root = s.text(14);
  row.outcome = s.optional_text(15);
  row.metadata = s.optional_text(16);
  row.verification = s.optional_text(17);
  row.started_at = s.integer(18);
  row.completed_at = s.optional_integer(19);
  return row;
}

}  // namespace

void TaskRepository::insert(const TaskRow& row, const std::string& snapshot_data) {
  db_.prepare(
         "INSERT INTO tasks (id, mission_id, phase_id, parent_task_id, execution_id, caller_type, "
         "agent_name, name, goal, areas, status, snapshot_type, snapshot_id, snapshot_root, "
         "snapshot_data, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.mission_id)
      .bind(3, row.phase_id)
      .bind(4, row.parent_task_id)
      .bind(5, row.execution_id)
      .bind(6, row.caller_type)
      .bind(7, row.agent_name)
      .bind(8, row.name)
      .bind(9, row.goal)
      .bind(10, row.areas)
      .bind(11, row.status)
      .bind(12, row.snapshot_type)
      .bind(13, row.snapshot_id)
      .bind(14, row.snapshot_root)
      .bind_blob(15, snapshot_data.data(), snapshot_data.size())
      .bind(16, row.started_at)
      .run();
}

void TaskRepository::start_planned(const TaskRow& row, const std::string& snapshot_data) {
  db_.prepare(
         "UPDATE tasks SET status = ?2, snapshot_type = ?3, snapshot_id = ?4, snapshot_root = ?5, "
         "snapshot_data = ?6, started_at = ?7, completed_at = NULL, caller_type = ?8, agent_name = "
         "?9, "
         "areas = ?10, outcome = NULL, verification = NULL, error = NULL WHERE id = ?1")
      .bind(1, row.id)
      .bind(2, row.status)
      .bind(3, row.snapshot_type)
      .bind(4, row.snapshot_id)
      .bind(5, row.snapshot_root)
      .bind_blob(6, snapshot_data.data(), snapshot_data.size())
      .bind(7, row.started_at)
      .bind(8, row.caller_type)
      .bind(9, row.agent_name)
      .bind(10, row.areas)
      .run();
  // A retried task's earlier change set is replaced by the new one.
  db_.prepare("DELETE FROM task_changes WHERE task_id = ?").bind(1, row.id).run();
}

std::optional<TaskRow> TaskRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE t.id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_task(s);
}

std::string TaskRepository::snapshot_data(const std::string& id) {
  auto s = db_.prepare("SELECT snapshot_data FROM tasks WHERE id = ?");
  s.bind(1, id);
  return s.step() ? s.blob(0) : std::string();
}

void TaskRepository::complete(const TaskRow& row) {
  db_.prepare(
         "UPDATE tasks SET status = ?, outcome = ?, metadata = ?, verification = ?, "
         "completed_at = ?, snapshot_data = NULL WHERE id = ?")
      .bind(1, row.status)
      .bind(2, row.outcome)
      .bind(3, row.metadata)
      .bind(4, row.verification)
      .bind(5, row.completed_at)
      .bind(6, row.id)
      .run();
}

void TaskRepository::record_changes(const std::string& task_id,
                                    std::span<const ChangeRow> changes) {
  auto s = db_.prepare(
      "INSERT INTO task_changes (task_id, change, path, old_path, in_scope) VALUES (?,?,?,?,?)");
  for (const ChangeRow& change : changes) {
    s.reset();
    s.bind(1, task_id).bind(2, change.change).bind(3, change.path).bind(4, change.old_path);
    s.bind(5, change.in_scope ? 1 : 0);
    s.run();
  }
}

Page<TaskRow> TaskRepository::page(const std::string& mission_id, const RecordFilter& filter,
                                   const PageRequest& request) {
  auto s = db_.prepare(std::string(kSelect) +
                       "WHERE t.mission_id = ?1 AND (?4 IS NULL OR p.number = ?4) AND "
                       "(?5 IS NULL OR t.agent_name = ?5) AND (?6 IS NULL OR t.started_at >= ?6)" +
                       page_clause(request, "t.rowid", 2, 3));
  s.bind(1, mission_id).bind(2, page_position(request));
  s.bind(3, static_cast<std::int64_t>(request.limit) + 1);
  s.bind(4, filter.phase).bind(5, filter.agent).bind(6, filter.since_ms);
  return read_page<TaskRow>(s, request, 20, read_task);
}

Page<ChangeRow> TaskRepository::changes(const std::string& task_id, const PageRequest& request,
                                        bool only_out_of_scope) {
  auto s = db_.prepare(
      std::string(
          "SELECT change, path, old_path, in_scope, id FROM task_changes WHERE task_id = ?1") +
      (only_out_of_scope ? " AND in_scope = 0" : "") + page_clause(request, "id", 2, 3));
  s.bind(1, task_id).bind(2, page_position(request));
  s.bind(3, static_cast<std::int64_t>(request.limit) + 1);
  return read_page<ChangeRow>(s, request, 4, [](const Statement& row) {
    return ChangeRow{row.text(0), row.text(1), row.optional_text(2), row.integer(3) != 0};
  });
}

std::map<std::string, std::vector<ChangeRow>> TaskRepository::first_changes(
    std::span<const std::string> task_ids, std::size_t per_task) {
  std::map<std::string, std::vector<ChangeRow>> first;
  if (task_ids.empty() || per_task == 0) return first;
  auto s = db_.prepare(
      "SELECT task_id, change, path, old_path, in_scope FROM ("
      "  SELECT c.*, row_number() OVER (PARTITION BY task_id ORDER BY id) AS n FROM task_changes c"
      "  WHERE task_id IN (SELECT value FROM json_each(?1))"
      ") AS numbered WHERE n <= ?2 ORDER BY task_id, n");
  s.bind(1, nlohmann::json(std::vector<std::string>(task_ids.begin(), task_ids.end())).dump());
  s.bind(2, static_cast<std::int64_t>(per_task));
  while (s.step()) {
    first[s.text(0)].push_back({s.text(1), s.text(2), s.optional_text(3), s.integer(4) != 0});
  }
  return first;
}

std::map<std::string, ChangeCounts> TaskRepository::change_counts(
    std::span<const std::string> task_ids) {
  std::map<std::string, ChangeCounts> counts;
  if (task_ids.empty()) return counts;
  auto s = db_.prepare(
      "SELECT task_id, change, count(*), sum(in_scope = 0) FROM task_changes WHERE task_id IN "
      "(SELECT value FROM json_each(?1)) GROUP BY task_id, change");
  s.bind(1, nlohmann::json(std::vector<std::string>(task_ids.begin(), task_ids.end())).dump());
  while (s.step()) {
    ChangeCounts& entry = counts[s.text(0)];
    const std::string change = s.text(1);
    const std::int64_t n = s.integer(2);
    if (change == "added") entry.added = n;
    if (change == "modified") entry.modified = n;
    if (change == "deleted") entry.deleted = n;
    if (change == "renamed") entry.renamed = n;
    entry.out_of_scope += s.integer(3);
  }
  return counts;
}

TaskStatusCounts TaskRepository::status_counts(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT count(*), coalesce(sum(status = 'in_progress'), 0), coalesce(sum(status = 'failed'), "
      "0) "
      "FROM tasks WHERE mission_id = ?");
  s.bind(1, mission_id);
  s.step();
  return {s.integer(0), s.integer(1), s.integer(2)};
}

std::map<std::string, std::int64_t> TaskRepository::tasks_per_phase(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT phase_id, count(*) FROM tasks WHERE mission_id = ? AND phase_id IS NOT NULL "
      "GROUP BY phase_id");
  s.bind(1, mission_id);
  std::map<std::string, std::int64_t> counts;
  while (s.step()) counts[s.text(0)] = s.integer(1);
  return counts;
}

std::vector<TaskRow> TaskRepository::open_tasks(const std::string& mission_id, std::size_t limit) {
  auto s =
      db_.prepare(std::string(kSelect) +
                  "WHERE t.mission_id = ? AND t.status = 'in_progress' ORDER BY t.rowid LIMIT ?");
  s.bind(1, mission_id).bind(2, static_cast<std::int64_t>(limit));
  std::vector<TaskRow> rows;
  while (s.step()) rows.push_back(read_task(s));
  return rows;
}

int TaskRepository::close_open_tasks(const std::string& mission_id, TaskStatus status,
                                     std::int64_t now) {
  db_.prepare(
         "UPDATE tasks SET status = ?, completed_at = ?, snapshot_data = NULL WHERE mission_id = ? "
         "AND status = 'in_progress'")
      .bind(1, status)
      .bind(2, now)
      .bind(3, mission_id)
      .run();
  return db_.changes();
}

bool TaskRepository::has_in_progress(const std::string& snapshot_root) {
  auto s = db_.prepare(
      "SELECT 1 FROM tasks WHERE status = 'in_progress' AND snapshot_root = ?1 LIMIT 1");
  s.bind(1, snapshot_root);
  return s.step();
}

std::int64_t TaskRepository::distinct_changed_paths(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT count(DISTINCT c.path) FROM task_changes c JOIN tasks t ON t.id = c.task_id "
      "WHERE t.mission_id = ?");
  s.bind(1, mission_id);
  s.step();
  return s.integer(0);
}

}  // namespace mission::store
