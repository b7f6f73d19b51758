#include "daemon/store/inbox_repository.hpp"

namespace mission::store {
namespace {

constexpr std::string_view kColumns =
    "SELECT a.task_id, t.name, r.workflow_id, m.name, r.id, a.attempt, a.execution_id, a.reason, "
    "COALESCE(a.ended_at, a.started_at) FROM run_attempts a JOIN runs r ON r.id = a.run_id "
    "JOIN tasks t ON t.id = a.task_id JOIN missions m ON m.id = r.workflow_id ";

std::vector<WaitingTask> rows_of(Statement& s) {
  std::vector<WaitingTask> rows;
  while (s.step()) {
    rows.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.integer(5),
                    s.optional_text(6), s.optional_text(7), s.integer(8)});
  }
  return rows;
}

}  // namespace

std::vector<WaitingTask> InboxRepository::awaiting_approval(std::size_t limit) {
  auto s = db_.prepare(std::string(kColumns) +
                       "WHERE a.status = 'awaiting_approval' AND r.status IN ('running', "
                       "'stopping') ORDER BY a.started_at, a.rowid LIMIT ?1");
  s.bind(1, static_cast<std::int64_t>(limit));
  return rows_of(s);
}

std::vector<WaitingTask> InboxRepository::conflicted(std::size_t limit) {
  auto s = db_.prepare(std::string(kColumns) +
                       "WHERE a.status = 'conflicted' AND t.status = 'failed' AND r.id = "
                       "(SELECT id FROM runs WHERE workflow_id = r.workflow_id ORDER BY created_at "
                       "DESC, rowid DESC LIMIT 1) ORDER BY a.ended_at, a.rowid LIMIT ?1");
  s.bind(1, static_cast<std::int64_t>(limit));
  return rows_of(s);
}

std::vector<WaitingTask> InboxRepository::budget_reached(std::size_t limit) {
  auto s = db_.prepare(std::string(kColumns) +
                       "WHERE a.status = 'budget_reached' AND r.status IN ('running', 'stopping') "
                       "AND a.attempt = (SELECT max(attempt) FROM run_attempts b WHERE b.run_id = "
                       "a.run_id AND b.task_id = a.task_id) ORDER BY a.ended_at, a.rowid LIMIT ?1");
  s.bind(1, static_cast<std::int64_t>(limit));
  return rows_of(s);
}

}  // namespace mission::store
