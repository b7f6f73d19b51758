#include "daemon/store/plan_repository.hpp"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <tuple>

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/page.hpp"

namespace mission::store {
namespace {

constexpr const char* kPlanColumns =
    "id, source_type, source_ref, source_content, repository_id, plan_summary, plan_approach, "
    "coalesce(plan_risks, '[]'), coalesce(plan_assumptions, '[]'), max_parallel_tasks, "
    "auto_create_workspaces, status_reason, plan_revision";

WorkflowPlanRow read_plan(const Statement& s) {
  WorkflowPlanRow row;
  row.mission_id = s.text(0);
  row.source_type = s.optional_text(1);
  row.source_ref = s.optional_text(2);
  row.source_content = s.optional_text(3);
  row.repository_id = s.optional_text(4);
  row.plan_summary = s.optional_text(5);
  row.plan_approach = s.optional_text(6);
  row.plan_risks = s.text(7);
  row.plan_assumptions = s.text(8);
  row.max_parallel_tasks = s.integer(9);
  row.auto_create_workspaces = s.integer(10) != 0;
  row.status_reason = s.optional_text(11);
  row.plan_revision = s.integer(12);
  return row;
}

constexpr const char* kTaskColumns =
    "id, mission_id, execution_id, name, coalesce(description, goal), status, plan_order, "
    "coalesce(sequence, 0), parallel_group, complexity, coalesce(files_likely_affected, '[]'), "
    "coalesce(acceptance_criteria, '[]'), task_plan, task_context, outcome, error, started_at, "
    "completed_at, coalesce(created_at, started_at, 0), claimed_by";

PlannedTaskRow read_task(const Statement& s) {
  PlannedTaskRow row;
  row.id = s.text(0);
  row.mission_id = s.text(1);
  row.execution_id = s.optional_text(2);
  row.name = s.text(3);
  row.description = s.text(4);
  row.status = s.name<TaskStatus>(5);
  row.plan_order = s.optional_integer(6);
  row.sequence = s.integer(7);
  row.parallel_group = s.optional_text(8);
  row.complexity = s.optional_text(9);
  row.files_likely_affected = s.text(10);
  row.acceptance_criteria = s.text(11);
  row.task_plan = s.optional_text(12);
  row.task_context = s.optional_text(13);
  row.outcome = s.optional_text(14);
  row.error = s.optional_text(15);
  row.started_at = s.optional_integer(16);
  row.completed_at = s.optional_integer(17);
  row.created_at = s.integer(18);
  row.claimed_by = s.optional_text(19);
  return row;
}

constexpr const char* kRefColumns = "id, name, status, plan_order";

PlannedTaskRef read_ref(const Statement& s) {
  return {s.text(0), s.text(1), s.name<TaskStatus>(2), s.integer(3)};
}

constexpr const char* kCheckpointColumns =
    "id, task_id, seq, execution_id, type, summary, detail, files_changed, created_at";

CheckpointRow read_checkpoint(const Statement& s) {
  CheckpointRow row;
  row.id = s.text(0);
  row.task_id = s.text(1);
  row.seq = s.integer(2);
  row.execution_id = s.optional_text(3);
  row.type = s.name<CheckpointType>(4);
  row.summary = s.text(5);
  row.detail = s.optional_text(6);
  row.files_changed = s.optional_text(7);
  row.created_at = s.integer(8);
  return row;
}

RepositoryRow read_repository(const Statement& s) {
  return {s.text(0), s.text(1), s.text(2), s.integer(3)};
}

TemplateRow read_template(const Statement& s) {
  return {s.text(0), s.text(1), s.optional_text(2), s.text(3), s.optional_text(4), s.integer(5)};
}

std::string status_list(std::span<const MissionStatus> statuses) {
  nlohmann::json names = nlohmann::json::array();
  for (MissionStatus status : statuses) names.push_back(std::string(name_of(status)));
  return names.dump();
}

constexpr const char* kWorkflowFilter =
    "kind = 'planned' AND (?1 IS NULL OR repository_id = ?1) AND "
    "(?2 = '[]' OR status IN (SELECT value FROM json_each(?2)))";

// Rows a multi-row INSERT of planned tasks (15 parameters each) and of
// edges (2 each) carries, within SQLite's 32,766 parameters.
constexpr std::size_t kTaskRowsPerInsert = 500;
constexpr std::size_t kEdgeRowsPerInsert = 2000;

// `head` followed by `rows` groups of `columns` parameters, then `tail`.
std::string many_rows(std::string_view head, std::size_t columns, std::size_t rows,
                      std::string_view tail = {}) {
  std::string group = "(";
  for (std::size_t c = 0; c < columns; ++c) group += c == 0 ? "?" : ",?";
  group += ")";
  std::string sql(head);
  sql.reserve(head.size() + rows * (group.size() + 1));
  for (std::size_t r = 0; r < rows; ++r) {
    if (r > 0) sql += ',';
    sql += group;
  }
  sql += tail;
  return sql;
}

}  // namespace

std::optional<WorkflowPlanRow> PlanRepository::workflow_plan(const std::string& mission_id) {
  auto s = db_.prepare(std::string("SELECT ") + kPlanColumns + " FROM missions WHERE id = ?");
  s.bind(1, mission_id);
  if (!s.step()) return std::nullopt;
  return read_plan(s);
}

void PlanRepository::write_workflow_plan(const WorkflowPlanRow& row, std::int64_t now) {
  db_.prepare(
         "UPDATE missions SET source_type = ?2, source_ref = ?3, source_content = ?4, "
         "repository_id = ?5, plan_summary = ?6, plan_approach = ?7, plan_risks = ?8, "
         "plan_assumptions = ?9, max_parallel_tasks = ?10, auto_create_workspaces = ?11, "
         "status_reason = ?12, plan_revision = plan_revision + 1, updated_at = ?13 WHERE id = ?1")
      .bind(1, row.mission_id)
      .bind(2, row.source_type)
      .bind(3, row.source_ref)
      .bind(4, row.source_content)
      .bind(5, row.repository_id)
      .bind(6, row.plan_summary)
      .bind(7, row.plan_approach)
      .bind(8, row.plan_risks)
      .bind(9, row.plan_assumptions)
      .bind(10, row.max_parallel_tasks)
      .bind(11, row.auto_create_workspaces ? 1 : 0)
      .bind(12, row.status_reason)
      .bind(13, now)
      .run();
}

std::int64_t PlanRepository::plan_revision(const std::string& mission_id) {
  auto s = db_.prepare("SELECT plan_revision FROM missions WHERE id = ?");
  s.bind(1, mission_id);
  return s.step() ? s.integer(0) : -1;
}

void PlanRepository::bump_revision(const std::string& mission_id) {
  db_.prepare("UPDATE missions SET plan_revision = plan_revision + 1 WHERE id = ?")
      .bind(1, mission_id)
      .run();
}

void PlanRepository::set_status(const std::string& mission_id, MissionStatus status,
                                const std::optional<std::string>& reason, std::int64_t now) {
  const bool final = is_final(status);
  db_.prepare(
         "UPDATE missions SET status = ?2, status_reason = coalesce(?3, status_reason), "
         "completed_at = CASE WHEN ?4 THEN coalesce(completed_at, ?5) ELSE NULL END, "
         "plan_revision = plan_revision + 1, updated_at = ?5 WHERE id = ?1")
      .bind(1, mission_id)
      .bind(2, status)
      .bind(3, reason)
      .bind(4, final ? 1 : 0)
      .bind(5, now)
      .run();
}

void PlanRepository::insert_planned(std::span<const PlannedTaskRow> tasks,
                                    std::span<const DependencyRow> edges) {
  // Many rows a statement: SQLite runs a statement's one-time work (the
  // CHECK constraints' IN lists become a temporary index, the statement's
  // start and halt) once per execution, so per row that work dominated.
  // The full chunks of a call share one compiled statement (a 500-row
  // INSERT takes longer to compile than to run); it is not kept past the
  // call, the daemon's memory being worth more than a compile a plan.
  std::optional<Statement> full;
  auto chunk = [&](std::string_view head, std::size_t columns, std::size_t rows,
                   std::size_t per_insert, std::string_view tail = {}) -> Statement& {
    if (rows < per_insert) {
      return full.emplace(db_.prepare_once(many_rows(head, columns, rows, tail)));
    }
    if (!full) full.emplace(db_.prepare_once(many_rows(head, columns, rows, tail)));
    full->reset();
    return *full;
  };
  for (std::size_t first = 0; first < tasks.size(); first += kTaskRowsPerInsert) {
    const std::size_t count = std::min(kTaskRowsPerInsert, tasks.size() - first);
    Statement& insert = chunk(
        "INSERT INTO tasks (id, mission_id, execution_id, name, goal, areas, status, plan_order, "
        "description, sequence, parallel_group, complexity, files_likely_affected, "
        "acceptance_criteria, created_at) VALUES ",
        15, count, kTaskRowsPerInsert);
    int at = 0;
    for (const auto& row : tasks.subspan(first, count)) {
      insert.bind(at + 1, row.id)
          .bind(at + 2, row.mission_id)
          .bind(at + 3, row.execution_id)
          .bind(at + 4, row.name)
          .bind(at + 5, row.description)
          .bind(at + 6,
                row.files_likely_affected)  // a planned task's areas: the files it expects to touch
          .bind(at + 7, row.status)
          .bind(at + 8, row.plan_order)
          .bind(at + 9, row.description)
          .bind(at + 10, row.sequence)
          .bind(at + 11, row.parallel_group)
          .bind(at + 12, row.complexity)
          .bind(at + 13, row.files_likely_affected)
          .bind(at + 14, row.acceptance_criteria)
          .bind(at + 15, row.created_at);
      at += 15;
    }
    insert.run();
  }
  full.reset();
  // In key order, so the primary key's B-tree grows at its end.
  std::vector<const DependencyRow*> sorted;
  sorted.reserve(edges.size());
  for (const auto& row : edges) sorted.push_back(&row);
  std::sort(sorted.begin(), sorted.end(), [](const DependencyRow* a, const DependencyRow* b) {
    return std::tie(a->task_id, a->depends_on_id) < std::tie(b->task_id, b->depends_on_id);
  });
  for (std::size_t first = 0; first < sorted.size(); first += kEdgeRowsPerInsert) {
    const std::size_t count = std::min(kEdgeRowsPerInsert, sorted.size() - first);
    Statement& edge = chunk("INSERT INTO task_dependencies (task_id, depends_on_id) VALUES ", 2,
                            count, kEdgeRowsPerInsert, " ON CONFLICT DO NOTHING");
    int at = 0;
    for (std::size_t i = first; i < first + count; ++i) {
      edge.bind(at + 1, sorted[i]->task_id).bind(at + 2, sorted[i]->depends_on_id);
      at += 2;
    }
    edge.run();
  }
  if (!tasks.empty()) bump_revision(tasks.front().mission_id);
}

void PlanRepository::delete_planned(const std::string& mission_id) {
  db_.prepare(
         "DELETE FROM task_dependencies WHERE task_id IN "
         "(SELECT id FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL)")
      .bind(1, mission_id)
      .run();
  db_.prepare("DELETE FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL")
      .bind(1, mission_id)
      .run();
  bump_revision(mission_id);
}

std::vector<PlannedTaskRow> PlanRepository::planned_tasks(const std::string& mission_id) {
  auto s = db_.prepare(
      std::string("SELECT ") + kTaskColumns +
      " FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL ORDER BY plan_order");
  s.bind(1, mission_id);
  std::vector<PlannedTaskRow> rows;
  while (s.step()) rows.push_back(read_task(s));
  return rows;
}

PlanEnd PlanRepository::plan_end(const std::string& mission_id) {
  PlanEnd end;
  auto order = db_.prepare(
      "SELECT plan_order FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL "
      "ORDER BY plan_order DESC LIMIT 1");
  order.bind(1, mission_id);
  if (order.step()) end.last_order = order.integer(0);
  auto sequence = db_.prepare(
      "SELECT sequence FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL "
      "ORDER BY sequence DESC LIMIT 1");
  sequence.bind(1, mission_id);
  if (sequence.step()) end.last_sequence = std::max<std::int64_t>(0, sequence.integer(0));
  return end;
}

std::optional<PlannedTaskRef> PlanRepository::planned_task_ref(const std::string& mission_id,
                                                               const std::string& name_or_id) {
  auto by_name =
      db_.prepare(std::string("SELECT ") + kRefColumns +
                  " FROM tasks WHERE mission_id = ?1 AND name = ?2 AND plan_order IS NOT NULL");
  by_name.bind(1, mission_id).bind(2, name_or_id);
  if (by_name.step()) return read_ref(by_name);
  auto by_id =
      db_.prepare(std::string("SELECT ") + kRefColumns +
                  " FROM tasks WHERE id = ?2 AND mission_id = ?1 AND plan_order IS NOT NULL");
  by_id.bind(1, mission_id).bind(2, name_or_id);
  if (by_id.step()) return read_ref(by_id);
  return std::nullopt;
}

std::vector<PlannedTaskRef> PlanRepository::stage_before(const std::string& mission_id,
                                                         std::int64_t sequence) {
  auto s =
      db_.prepare(std::string("SELECT ") + kRefColumns +
                  " FROM tasks WHERE mission_id = ?1 AND plan_order IS NOT NULL AND sequence = "
                  "(SELECT sequence FROM tasks WHERE mission_id = ?1 AND plan_order IS NOT NULL "
                  "AND sequence < ?2 ORDER BY sequence DESC LIMIT 1) ORDER BY plan_order");
  s.bind(1, mission_id).bind(2, sequence);
  std::vector<PlannedTaskRef> rows;
  while (s.step()) rows.push_back(read_ref(s));
  return rows;
}

std::optional<PlannedTaskRow> PlanRepository::first_started(const std::string& mission_id) {
  auto s = db_.prepare(
      std::string("SELECT ") + kTaskColumns +
      " FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL AND status != 'pending' "
      "ORDER BY plan_order LIMIT 1");
  s.bind(1, mission_id);
  if (!s.step()) return std::nullopt;
  return read_task(s);
}

std::optional<TaskStatus> PlanRepository::task_status(const std::string& id) {
  auto s = db_.prepare("SELECT status FROM tasks WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return s.name<TaskStatus>(0);
}

std::vector<TaskProgressRow> PlanRepository::planned_progress(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT id, status, started_at, completed_at, claimed_by FROM tasks "
      "WHERE mission_id = ? AND plan_order IS NOT NULL ORDER BY plan_order");
  s.bind(1, mission_id);
  std::vector<TaskProgressRow> rows;
  while (s.step()) {
    rows.push_back({s.text(0), s.name<TaskStatus>(1), s.optional_integer(2), s.optional_integer(3),
                    s.optional_text(4)});
  }
  return rows;
}

std::optional<PlannedTaskRow> PlanRepository::task(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kTaskColumns + " FROM tasks WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_task(s);
}

std::vector<DependencyRow> PlanRepository::dependencies(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT d.task_id, d.depends_on_id FROM task_dependencies d JOIN tasks t ON t.id = d.task_id "
      "WHERE t.mission_id = ?");
  s.bind(1, mission_id);
  std::vector<DependencyRow> rows;
  while (s.step()) rows.push_back({s.text(0), s.text(1)});
  return rows;
}

void PlanRepository::set_task_plan(const std::string& task_id, const std::string& plan,
                                   const std::optional<std::string>& context) {
  db_.prepare(
         "UPDATE tasks SET task_plan = ?2, task_context = coalesce(?3, task_context) WHERE id = ?1")
      .bind(1, task_id)
      .bind(2, plan)
      .bind(3, context)
      .run();
}

PlanProgressCounts PlanRepository::progress_counts(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT count(*), sum(status IN ('success', 'partial_success', 'skipped')), "
      "sum(status = 'in_progress') FROM tasks WHERE mission_id = ? AND plan_order IS NOT NULL");
  s.bind(1, mission_id);
  s.step();
  return {s.integer(0), s.integer(1), s.integer(2)};
}

void PlanRepository::set_task_status(const PlannedTaskRow& row) {
  db_.prepare(
         "UPDATE tasks SET status = ?2, outcome = ?3, error = ?4, started_at = ?5, "
         "completed_at = ?6 WHERE id = ?1")
      .bind(1, row.id)
      .bind(2, row.status)
      .bind(3, row.outcome)
      .bind(4, row.error)
      .bind(5, row.started_at)
      .bind(6, row.completed_at)
      .run();
}

void PlanRepository::drop_snapshot(const std::string& task_id) {
  db_.prepare(
         "UPDATE tasks SET snapshot_type = NULL, snapshot_id = NULL, snapshot_root = NULL, "
         "snapshot_data = NULL "
         "WHERE id = ?1")
      .bind(1, task_id)
      .run();
}

void PlanRepository::insert_checkpoint(const CheckpointRow& row) {
  db_.prepare(std::string("INSERT INTO checkpoints (") + kCheckpointColumns +
              ") VALUES (?,?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.task_id)
      .bind(3, row.seq)
      .bind(4, row.execution_id)
      .bind(5, row.type)
      .bind(6, row.summary)
      .bind(7, row.detail)
      .bind(8, row.files_changed)
      .bind(9, row.created_at)
      .run();
}

std::vector<CheckpointRow> PlanRepository::checkpoints(const std::string& task_id,
                                                       std::span<const CheckpointType> types,
                                                       std::optional<std::int64_t> since_seq,
                                                       std::optional<std::size_t> limit) {
  nlohmann::json names = nlohmann::json::array();
  for (CheckpointType type : types) names.push_back(std::string(name_of(type)));
  // The newest `limit`, then read back oldest first.
  auto s = db_.prepare(std::string("SELECT * FROM (SELECT ") + kCheckpointColumns +
                       " FROM checkpoints WHERE task_id = ?1 AND seq > ?2 AND "
                       "(?3 = '[]' OR type IN (SELECT value FROM json_each(?3))) "
                       "ORDER BY seq DESC LIMIT ?4) AS newest ORDER BY seq");
  s.bind(1, task_id).bind(2, since_seq.value_or(0)).bind(3, names.dump());
  s.bind(4, limit ? static_cast<std::int64_t>(*limit) : std::numeric_limits<std::int64_t>::max());
  std::vector<CheckpointRow> rows;
  while (s.step()) rows.push_back(read_checkpoint(s));
  return rows;
}

void PlanRepository::insert_repository(const RepositoryRow& row) {
  db_.prepare("INSERT INTO repositories (id, path, name, created_at) VALUES (?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.path)
      .bind(3, row.name)
      .bind(4, row.created_at)
      .run();
}

std::optional<RepositoryRow> PlanRepository::repository_by_path(const std::string& path) {
  auto s = db_.prepare("SELECT id, path, name, created_at FROM repositories WHERE path = ?");
  s.bind(1, path);
  if (!s.step()) return std::nullopt;
  return read_repository(s);
}

std::optional<RepositoryRow> PlanRepository::repository(const std::string& id) {
  auto s = db_.prepare("SELECT id, path, name, created_at FROM repositories WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_repository(s);
}

Page<RepositoryRow> PlanRepository::repositories(const PageRequest& request) {
  auto s = db_.prepare("SELECT id, path, name, created_at, rowid FROM repositories WHERE TRUE" +
                       page_clause(request, "rowid", 1, 2));
  s.bind(1, page_position(request)).bind(2, static_cast<std::int64_t>(request.limit) + 1);
  return read_page<RepositoryRow>(s, request, 4, read_repository);
}

void PlanRepository::insert_template(const TemplateRow& row) {
  db_.prepare(
         "INSERT INTO templates (id, name, description, definition, execution_id, created_at) "
         "VALUES (?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.name)
      .bind(3, row.description)
      .bind(4, row.definition)
      .bind(5, row.execution_id)
      .bind(6, row.created_at)
      .run();
}

std::optional<TemplateRow> PlanRepository::template_by_id(const std::string& id) {
  auto s = db_.prepare(
      "SELECT id, name, description, definition, execution_id, created_at FROM templates WHERE id "
      "= ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_template(s);
}

std::optional<TemplateRow> PlanRepository::template_by_name(const std::string& name) {
  auto s = db_.prepare(
      "SELECT id, name, description, definition, execution_id, created_at FROM templates WHERE "
      "name = ?");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return read_template(s);
}

Page<TemplateRow> PlanRepository::templates(const PageRequest& request) {
  auto s = db_.prepare(
      "SELECT id, name, description, definition, execution_id, created_at, rowid FROM templates "
      "WHERE TRUE" +
      page_clause(request, "rowid", 1, 2));
  s.bind(1, page_position(request)).bind(2, static_cast<std::int64_t>(request.limit) + 1);
  return read_page<TemplateRow>(s, request, 6, read_template);
}

Page<std::string> PlanRepository::workflow_ids(const std::optional<std::string>& repository_id,
                                               std::span<const MissionStatus> statuses,
                                               const PageRequest& request) {
  auto s = db_.prepare(std::string("SELECT id, rowid FROM missions WHERE ") + kWorkflowFilter +
                       page_clause(request, "rowid", 3, 4));
  s.bind(1, repository_id).bind(2, status_list(statuses));
  s.bind(3, page_position(request)).bind(4, static_cast<std::int64_t>(request.limit) + 1);
  return read_page<std::string>(s, request, 1, [](const Statement& row) { return row.text(0); });
}

std::int64_t PlanRepository::workflow_count(const std::optional<std::string>& repository_id,
                                            std::span<const MissionStatus> statuses) {
  auto s = db_.prepare(std::string("SELECT count(*) FROM missions WHERE ") + kWorkflowFilter);
  s.bind(1, repository_id).bind(2, status_list(statuses));
  s.step();
  return s.integer(0);
}

}  // namespace mission::store
