#include "daemon/store/task_repository.hpp"

namespace mission::store {
namespace {

constexpr const char* kSelect =
    "SELECT t.id, t.mission_id, t.phase_id, p.number, t.parent_task_id, t.execution_id, "
    "t.caller_type, t.agent_name, t.name, t.goal, t.areas, t.status, t.snapshot_type, "
    "t.snapshot_id, t.snapshot_root, t.outcome, t.metadata, t.files_changed, t.verification, "
    "t.started_at, t.completed_at FROM tasks t LEFT JOIN phases p ON p.id = t.phase_id ";

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
  row.status = s.text(11);
  row.snapshot_type = s.text(12);
  row.snapshot_id = s.text(13);
  row.snapshot_root = s.text(14);
  row.outcome = s.optional_text(15);
  row.metadata = s.optional_text(16);
  row.files_changed = s.optional_text(17);
  row.verification = s.optional_text(18);
  row.started_at = s.integer(19);
  row.completed_at = s.optional_integer(20);
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
         "UPDATE tasks SET status = ?, outcome = ?, metadata = ?, files_changed = ?, "
         "verification = ?, completed_at = ? WHERE id = ?")
      .bind(1, row.status)
      .bind(2, row.outcome)
      .bind(3, row.metadata)
      .bind(4, row.files_changed)
      .bind(5, row.verification)
      .bind(6, row.completed_at)
      .bind(7, row.id)
      .run();
}

std::vector<TaskRow> TaskRepository::list_for_mission(const std::string& mission_id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE t.mission_id = ? ORDER BY t.started_at, t.rowid");
  s.bind(1, mission_id);
  std::vector<TaskRow> rows;
  while (s.step()) rows.push_back(read_task(s));
  return rows;
}

bool TaskRepository::has_in_progress(const std::string& snapshot_root) {
  auto s =
      db_.prepare("SELECT 1 FROM tasks WHERE status = 'in_progress' AND snapshot_root = ? LIMIT 1");
  s.bind(1, snapshot_root);
  return s.step();
}

}  // namespace mission::store
