#include "daemon/store/claim_repository.hpp"

#include "shared/error_code.hpp"
#include "shared/record_id.hpp"

namespace mission::store {
namespace {

constexpr const char* kClaimSelect =
    "SELECT t.id, t.name, t.mission_id, t.claimed_by, t.claimed_at, t.status FROM tasks t ";

ClaimRow read_claim(const Statement& s) {
  ClaimRow row;
  row.task_id = s.text(0);
  row.task_name = s.text(1);
  row.workflow_id = s.text(2);
  row.execution_id = s.text(3);
  row.claimed_at = s.integer(4);
  row.status = s.name<TaskStatus>(5);
  return row;
}

}  // namespace

bool ClaimRepository::try_claim(const std::string& task_id, const std::string& execution_id,
                                std::int64_t now) {
  // Check and set in one statement: the WHERE clause is the check, so two
  // claims can never both see the task free. "started_at = started_at"
  // names the column so that the trigger tasks_revise_plan (fired by UPDATE
  // OF status, started_at, ...) bumps the workflow's plan_revision: a cached
  // DAG then learns of the claim, and workflow_next_tasks stops offering the
  // task. Not status: tasks_end_claim would drop the claim of a failed task.
  // Every path that ends a claim sets status (release, migration 8's triggers).
  auto s = db_.prepare(
      "UPDATE tasks SET claimed_by = ?2, claimed_at = ?3, execution_id = ?2, started_at = "
      "started_at "
      "WHERE id = ?1 AND claimed_by IS NULL AND plan_order IS NOT NULL "
      "AND status IN ('pending', 'failed')");
  s.bind(1, task_id).bind(2, execution_id).bind(3, now);
  s.run();
  return db_.changes() == 1;
}

void ClaimRepository::hold_to_start(const std::string& task_id, const std::string& execution_id,
                                    std::int64_t now) {
  auto held = claim_of(task_id);
  if (!held) {
    try_claim(task_id, execution_id, now);
    return;
  }
  if (held->execution_id == execution_id) return;
  throw MissionError(ErrorCode::already_claimed,
                     "task " + task_id + " is claimed by agent execution " + held->execution_id,
                     "task_get_available lists the tasks nobody holds",
                     {{"task_id", task_id}, {"already_claimed_by", held->execution_id}});
}

std::optional<ClaimRow> ClaimRepository::claim_of(const std::string& task_id) {
  auto s = db_.prepare(std::string(kClaimSelect) + "WHERE t.id = ?1 AND t.claimed_by IS NOT NULL");
  s.bind(1, task_id);
  if (!s.step()) return std::nullopt;
  return read_claim(s);
}

std::vector<ClaimRow> ClaimRepository::claims_of(const std::string& execution_id) {
  auto s = db_.prepare(std::string(kClaimSelect) +
                       "WHERE t.claimed_by = ?1 ORDER BY t.claimed_at, t.rowid");
  s.bind(1, execution_id);
  std::vector<ClaimRow> rows;
  while (s.step()) rows.push_back(read_claim(s));
  return rows;
}

bool ClaimRepository::release(const std::string& task_id, const std::string& execution_id,
                              const std::string& reason, const std::string& summary,
                              std::int64_t now) {
  auto claim = claim_of(task_id);
  if (!claim || claim->execution_id != execution_id) return false;
  // The same two steps as the trigger of migration 8, for one task.
  auto insert = db_.prepare(
      "INSERT INTO checkpoints (id, task_id, seq, execution_id, type, summary, detail, created_at) "
      "SELECT ?2, t.id, t.journal_seq + 1, ?3, 'recovery', ?4, "
      "json_object('reason', ?5, 'agent_execution_id', ?3, 'previous_status', t.status), ?6 "
      "FROM tasks t WHERE t.id = ?1");
  insert.bind(1, task_id).bind(2, new_random_id("cp-", 10)).bind(3, execution_id);
  insert.bind(4, summary).bind(5, reason).bind(6, now);
  insert.run();
  auto update = db_.prepare(
      "UPDATE tasks SET journal_seq = journal_seq + 1, claimed_by = NULL, claimed_at = NULL, "
      "started_at = CASE WHEN status = 'in_progress' THEN NULL ELSE started_at END, "
      "status = CASE WHEN status = 'in_progress' THEN 'pending' ELSE status END "
      "WHERE id = ?1 AND claimed_by = ?2");
  update.bind(1, task_id).bind(2, execution_id);
  update.run();
  return true;
}

std::vector<ClaimRow> ClaimRepository::expired(std::int64_t now, std::int64_t lease_ms) {
  auto s = db_.prepare(std::string(kClaimSelect) +
                       "JOIN executions e ON e.id = t.claimed_by WHERE t.claimed_by IS NOT NULL "
                       "AND e.kind != 'launched' "
                       "AND max(t.claimed_at, coalesce(e.last_heartbeat_at, 0), "
                       "coalesce((SELECT max(s.last_call_at) FROM mcp_sessions s WHERE "
                       "s.execution_id = e.id), 0)) < ?1 "
                       "ORDER BY t.claimed_at");
  s.bind(1, now - lease_ms);
  std::vector<ClaimRow> rows;
  while (s.step()) rows.push_back(read_claim(s));
  return rows;
}

std::vector<AvailableTaskRow> ClaimRepository::unclaimed(
    const std::optional<std::string>& workflow_id, const std::string& capabilities,
    std::int64_t after, std::size_t limit) {
  auto s = db_.prepare(
      "SELECT t.id, t.mission_id, t.name, coalesce(t.description, t.goal), coalesce(t.sequence, "
      "0), "
      "t.parallel_group, t.complexity, coalesce(t.files_likely_affected, '[]'), "
      "coalesce(json_extract(t.task_context, '$.required_capabilities'), '[]'), t.status, t.rowid "
      "FROM tasks t JOIN missions m ON m.id = t.mission_id "
      "WHERE t.plan_order IS NOT NULL AND t.claimed_by IS NULL AND t.status IN ('pending', "
      "'failed') "
      "AND m.kind = 'planned' AND m.status IN ('ready', 'pending', 'in_progress', 'blocked') "
      "AND (?1 IS NULL OR t.mission_id = ?1) AND t.rowid > ?3 "
      "AND NOT EXISTS (SELECT 1 FROM json_each(CASE WHEN json_type(t.task_context, "
      "'$.required_capabilities') = 'array' THEN json_extract(t.task_context, "
      "'$.required_capabilities') "
      "ELSE '[]' END) r WHERE r.value NOT IN (SELECT value FROM json_each(?2))) "
      "ORDER BY t.rowid LIMIT ?4");
  s.bind(1, workflow_id)
      .bind(2, capabilities)
      .bind(3, after)
      .bind(4, static_cast<std::int64_t>(limit));
  std::vector<AvailableTaskRow> rows;
  while (s.step()) {
    AvailableTaskRow row;
    row.id = s.text(0);
    row.workflow_id = s.text(1);
    row.name = s.text(2);
    row.description = s.text(3);
    row.sequence = s.integer(4);
    row.parallel_group = s.optional_text(5);
    row.complexity = s.optional_text(6);
    row.files_likely_affected = s.text(7);
    row.required_capabilities = s.text(8);
    row.status = s.name<TaskStatus>(9);
    row.position = s.integer(10);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace mission::store
