#include "daemon/store/task_attempt_repository.hpp"

namespace mission::store {
namespace {

constexpr const char* kSelect =
    "SELECT id, task_id, coordinator_id, executor, command, workspace_id, worktree, branch, "
    "base_commit, "
    "execution_id, turns, queued_prompt, launch_error, stopped, created_at, updated_at, rowid "
    "FROM task_attempts ";
constexpr int kPositionColumn = 16;

TaskAttemptRow read_row(const Statement& s) {
  TaskAttemptRow row;
  row.id = s.text(0);
  row.task_id = s.text(1);
  row.coordinator_id = s.text(2);
  row.executor = s.text(3);
  row.command = s.text(4);
  row.workspace_id = s.optional_text(5);
  row.worktree = s.text(6);
  row.branch = s.text(7);
  row.base_commit = s.text(8);
  row.execution_id = s.optional_text(9);
  row.turns = s.integer(10);
  row.queued_prompt = s.optional_text(11);
  row.launch_error = s.optional_text(12);
  row.stopped = s.integer(13) != 0;
  row.created_at = s.integer(14);
  row.updated_at = s.integer(15);
  return row;
}

}  // namespace

void TaskAttemptRepository::insert(const TaskAttemptRow& row) {
  auto s = db_.prepare(
      "INSERT INTO task_attempts (id, task_id, coordinator_id, executor, command, workspace_id, "
      "worktree, branch, "
      "base_commit, execution_id, turns, queued_prompt, launch_error, stopped, created_at, "
      "updated_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
  s.bind(1, row.id)
      .bind(2, row.task_id)
      .bind(3, row.coordinator_id)
      .bind(4, row.executor)
      .bind(5, row.command);
  s.bind(6, row.workspace_id).bind(7, row.worktree).bind(8, row.branch).bind(9, row.base_commit);
  s.bind(10, row.execution_id)
      .bind(11, row.turns)
      .bind(12, row.queued_prompt)
      .bind(13, row.launch_error);
  s.bind(14, static_cast<std::int64_t>(row.stopped))
      .bind(15, row.created_at)
      .bind(16, row.updated_at);
  s.run();
}

void TaskAttemptRepository::update(const TaskAttemptRow& row) {
  auto s = db_.prepare(
      "UPDATE task_attempts SET workspace_id = ?2, execution_id = ?3, turns = ?4, queued_prompt = "
      "?5, "
      "launch_error = ?6, stopped = ?7, updated_at = ?8 WHERE id = ?1");
  s.bind(1, row.id).bind(2, row.workspace_id).bind(3, row.execution_id).bind(4, row.turns);
  s.bind(5, row.queued_prompt)
      .bind(6, row.launch_error)
      .bind(7, static_cast<std::int64_t>(row.stopped));
  s.bind(8, row.updated_at);
  s.run();
}

std::optional<TaskAttemptRow> TaskAttemptRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

std::optional<TaskAttemptRow> TaskAttemptRepository::of_execution(const std::string& execution_id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE execution_id = ?1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

Page<TaskAttemptRow> TaskAttemptRepository::of_task(const std::string& task_id,
                                                    const PageRequest& request) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE task_id = ?1" +
                       page_clause(request, "rowid", 2, 3));
  s.bind(1, task_id)
      .bind(2, page_position(request))
      .bind(3, static_cast<std::int64_t>(request.limit) + 1);
  return read_page<TaskAttemptRow>(s, request, kPositionColumn, read_row);
}

std::int64_t TaskAttemptRepository::count_of_task(const std::string& task_id) {
  auto s = db_.prepare("SELECT count(*) FROM task_attempts WHERE task_id = ?1");
  s.bind(1, task_id);
  s.step();
  return s.integer(0);
}

std::vector<TaskAttemptRow> TaskAttemptRepository::queued() {
  auto s = db_.prepare(std::string(kSelect) + "WHERE queued_prompt IS NOT NULL ORDER BY rowid");
  std::vector<TaskAttemptRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  return rows;
}

}  // namespace mission::store
