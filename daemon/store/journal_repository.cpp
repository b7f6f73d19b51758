#include "daemon/store/journal_repository.hpp"

#include "daemon/store/page.hpp"

namespace mission::store {
namespace {

// A page of one mission's rows of a journal table: each joins its task for
// the mission and the filter. ?1 mission, ?2 phase, ?3 agent, ?4 since,
// ?5 position, ?6 limit.
std::string select_page(const char* table, const char* columns, const PageRequest& request,
                        const char* extra = "") {
  return std::string("SELECT ") + columns + ", x.rowid FROM " + table +
         " x JOIN tasks t ON t.id = x.task_id LEFT JOIN phases p ON p.id = t.phase_id "
         "WHERE t.mission_id = ?1 AND (?2 IS NULL OR p.number = ?2) AND "
         "(?3 IS NULL OR t.agent_name = ?3) AND (?4 IS NULL OR x.created_at >= ?4)" +
         extra + page_clause(request, "x.rowid", 5, 6);
}

void bind_page(Statement& s, const std::string& mission_id, const RecordFilter& filter,
               const PageRequest& request) {
  s.bind(1, mission_id).bind(2, filter.phase).bind(3, filter.agent).bind(4, filter.since_ms);
  s.bind(5, page_position(request)).bind(6, static_cast<std::int64_t>(request.limit) + 1);
}

DecisionRow read_decision(const Statement& s) {
  DecisionRow row;
  row.id = s.text(0);
  row.task_id = s.text(1);
  row.execution_id = s.optional_text(2);
  row.category = s.text(3);
  row.question = s.text(4);
  row.options_considered = s.optional_text(5);
  row.chosen = s.text(6);
  row.reasoning = s.text(7);
  row.trade_offs = s.optional_text(8);
  row.created_at = s.integer(9);
  return row;
}

MilestoneRow read_milestone(const Statement& s) {
  MilestoneRow row;
  row.id = s.text(0);
  row.task_id = s.text(1);
  row.execution_id = s.optional_text(2);
  row.message = s.text(3);
  if (!s.is_null(4)) row.progress = s.real(4);
  row.metadata = s.optional_text(5);
  row.created_at = s.integer(6);
  return row;
}

constexpr const char* kIssueColumns =
    "x.id, x.task_id, x.execution_id, x.type, x.description, x.resolution, "
    "x.requires_human_review, x.resolved_at, x.resolved_note, x.created_at";

IssueRow read_issue(const Statement& s) {
  IssueRow row;
  row.id = s.text(0);
  row.task_id = s.text(1);
  row.execution_id = s.optional_text(2);
  row.type = s.text(3);
  row.description = s.text(4);
  row.resolution = s.text(5);
  row.requires_human_review = s.integer(6) != 0;
  row.resolved_at = s.optional_integer(7);
  row.resolved_note = s.optional_text(8);
  row.created_at = s.integer(9);
  return row;
}

}  // namespace

std::int64_t next_journal_seq(Database& db, const std::string& task_id) {
  auto s = db.prepare(
      "UPDATE tasks SET journal_seq = journal_seq + 1 WHERE id = ? RETURNING journal_seq");
  s.bind(1, task_id);
  return s.step() ? s.integer(0) : 0;
}

void JournalRepository::insert(const DecisionRow& row) {
  db_.prepare(
         "INSERT INTO decisions (id, task_id, execution_id, category, question, "
         "options_considered, chosen, reasoning, trade_offs, created_at, seq) "
         "VALUES (?,?,?,?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.task_id)
      .bind(3, row.execution_id)
      .bind(4, row.category)
      .bind(5, row.question)
      .bind(6, row.options_considered)
      .bind(7, row.chosen)
      .bind(8, row.reasoning)
      .bind(9, row.trade_offs)
      .bind(10, row.created_at)
      .bind(11, next_journal_seq(db_, row.task_id))
      .run();
}

void JournalRepository::insert(const IssueRow& row) {
  db_.prepare(
         "INSERT INTO issues (id, task_id, execution_id, type, description, resolution, "
         "requires_human_review, created_at, seq) VALUES (?,?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.task_id)
      .bind(3, row.execution_id)
      .bind(4, row.type)
      .bind(5, row.description)
      .bind(6, row.resolution)
      .bind(7, row.requires_human_review ? 1 : 0)
      .bind(8, row.created_at)
      .bind(9, next_journal_seq(db_, row.task_id))
      .run();
}

void JournalRepository::insert(const MilestoneRow& row) {
  auto s = db_.prepare(
      "INSERT INTO milestones (id, task_id, execution_id, message, progress, metadata, "
      "created_at, seq) VALUES (?,?,?,?,?,?,?,?)");
  s.bind(1, row.id).bind(2, row.task_id).bind(3, row.execution_id).bind(4, row.message);
  s.bind(5, row.progress).bind(6, row.metadata).bind(7, row.created_at);
  s.bind(8, next_journal_seq(db_, row.task_id));
  s.run();
}

Page<DecisionRow> JournalRepository::decisions(const std::string& mission_id,
                                               const RecordFilter& filter,
                                               const PageRequest& request) {
  auto s = db_.prepare(select_page(
      "decisions",
      "x.id, x.task_id, x.execution_id, x.category, x.question, x.options_considered, x.chosen, "
      "x.reasoning, x.trade_offs, x.created_at",
      request));
  bind_page(s, mission_id, filter, request);
  return read_page<DecisionRow>(s, request, 10, read_decision);
}

Page<IssueRow> JournalRepository::issues(const std::string& mission_id, const RecordFilter& filter,
                                         const PageRequest& request, bool open_blockers_only) {
  auto s = db_.prepare(select_page(
      "issues", kIssueColumns, request,
      open_blockers_only ? " AND x.requires_human_review = 1 AND x.resolved_at IS NULL" : ""));
  bind_page(s, mission_id, filter, request);
  return read_page<IssueRow>(s, request, 10, read_issue);
}

Page<MilestoneRow> JournalRepository::milestones(const std::string& mission_id,
                                                 const RecordFilter& filter,
                                                 const PageRequest& request) {
  auto s = db_.prepare(select_page(
      "milestones",
      "x.id, x.task_id, x.execution_id, x.message, x.progress, x.metadata, x.created_at", request));
  bind_page(s, mission_id, filter, request);
  return read_page<MilestoneRow>(s, request, 7, read_milestone);
}

std::int64_t JournalRepository::count_open_blockers(const std::string& mission_id) {
  auto s = db_.prepare(
      "SELECT count(*) FROM issues x JOIN tasks t ON t.id = x.task_id WHERE t.mission_id = ? AND "
      "x.requires_human_review = 1 AND x.resolved_at IS NULL");
  s.bind(1, mission_id);
  s.step();
  return s.integer(0);
}

std::optional<IssueRow> JournalRepository::find_issue(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kIssueColumns + " FROM issues x WHERE x.id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_issue(s);
}

std::optional<std::string> JournalRepository::mission_of_issue(const std::string& id) {
  auto s = db_.prepare(
      "SELECT t.mission_id FROM issues x JOIN tasks t ON t.id = x.task_id WHERE x.id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

void JournalRepository::resolve_issue(const std::string& id, std::int64_t at,
                                      const std::optional<std::string>& note) {
  db_.prepare("UPDATE issues SET resolved_at = ?, resolved_note = ? WHERE id = ?")
      .bind(1, at)
      .bind(2, note)
      .bind(3, id)
      .run();
}

}  // namespace mission::store
