#include "daemon/store/run_repository.hpp"

#include <algorithm>

#include "shared/usage_limits.hpp"

namespace mission::store {
namespace {

constexpr const char* kRunSelect =
    "SELECT id, workflow_id, status, options, repository, integration_branch, base_commit, reason, "
    "created_at, "
    "ended_at, landed FROM runs ";

RunRow read_run(const Statement& s) {
  RunRow row;
  row.id = s.text(0);
  row.workflow_id = s.text(1);
  row.status = s.name<RunStatus>(2);
  row.options = s.text(3);
  row.repository = s.text(4);
  row.integration_branch = s.text(5);
  row.base_commit = s.text(6);
  row.reason = s.optional_text(7);
  row.created_at = s.integer(8);
  row.ended_at = s.optional_integer(9);
  row.landed = s.optional_text(10);
  return row;
}

constexpr const char* kAttemptSelect =
    "SELECT run_id, task_id, attempt, status, execution_id, workspace_id, reason, check_output, "
    "merge_commit, "
    "started_at, ended_at, dispatch_us, tokens_input, tokens_output, scope_warning, gate_tree, "
    "gate_onto, gate_passed, gate_output, gate_at FROM "
    "run_attempts ";

AttemptRow read_attempt(const Statement& s) {
  AttemptRow row;
  row.run_id = s.text(0);
  row.task_id = s.text(1);
  row.attempt = s.integer(2);
  row.status = s.name<AttemptStatus>(3);
  row.execution_id = s.optional_text(4);
  row.workspace_id = s.optional_text(5);
  row.reason = s.optional_text(6);
  row.check_output = s.optional_text(7);
  row.merge_commit = s.optional_text(8);
  row.started_at = s.integer(9);
  row.ended_at = s.optional_integer(10);
  row.dispatch_us = s.optional_integer(11);
  row.tokens_input = s.optional_integer(12);
  row.tokens_output = s.optional_integer(13);
  row.scope_warning = s.optional_text(14);
  row.gate_tree = s.optional_text(15);
  row.gate_onto = s.optional_text(16);
  if (auto passed = s.optional_integer(17)) row.gate_passed = *passed != 0;
  row.gate_output = s.optional_text(18);
  row.gate_at = s.optional_integer(19);
  return row;
}

}  // namespace

void RunRepository::insert(const RunRow& row) {
  auto s = db_.prepare(
      "INSERT INTO runs (id, workflow_id, status, options, repository, integration_branch, "
      "base_commit, reason, "
      "created_at, ended_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  s.bind(1, row.id)
      .bind(2, row.workflow_id)
      .bind(3, row.status)
      .bind(4, row.options)
      .bind(5, row.repository);
  s.bind(6, row.integration_branch)
      .bind(7, row.base_commit)
      .bind(8, row.reason)
      .bind(9, row.created_at);
  s.bind(10, row.ended_at);
  s.run();
}

std::optional<RunRow> RunRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string(kRunSelect) + "WHERE id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::optional<RunRow> RunRepository::live_of(const std::string& workflow_id) {
  auto s = db_.prepare(std::string(kRunSelect) +
                       "WHERE workflow_id = ?1 AND status IN ('running', 'stopping')");
  s.bind(1, workflow_id);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::optional<RunRow> RunRepository::latest_of(const std::string& workflow_id) {
  auto s = db_.prepare(std::string(kRunSelect) +
                       "WHERE workflow_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1");
  s.bind(1, workflow_id);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::vector<RunRow> RunRepository::live() {
  auto s = db_.prepare(std::string(kRunSelect) +
                       "WHERE status IN ('running', 'stopping') ORDER BY created_at, rowid");
  std::vector<RunRow> rows;
  while (s.step()) rows.push_back(read_run(s));
  return rows;
}

std::vector<std::string> RunRepository::ended_ids() {
  auto s = db_.prepare("SELECT id FROM runs WHERE status NOT IN ('running', 'stopping')");
  std::vector<std::string> ids;
  while (s.step()) ids.push_back(s.text(0));
  return ids;
}

void RunRepository::set_status(const std::string& id, RunStatus status,
                               const std::optional<std::string>& reason,
                               std::optional<std::int64_t> ended_at) {
  auto s = db_.prepare(
      "UPDATE runs SET status = ?2, reason = coalesce(?3, reason), ended_at = ?4 WHERE id = ?1");
  s.bind(1, id).bind(2, status).bind(3, reason).bind(4, ended_at);
  s.run();
}

void RunRepository::set_options(const std::string& id, const std::string& options) {
  auto s = db_.prepare("UPDATE runs SET options = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, options);
  s.run();
}

void RunRepository::set_landed(const std::string& id, const std::string& landed) {
  auto s = db_.prepare("UPDATE runs SET landed = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, landed);
  s.run();
}

void RunRepository::insert_attempt(const AttemptRow& row) {
  auto s = db_.prepare(
      "INSERT INTO run_attempts (run_id, task_id, attempt, status, execution_id, workspace_id, "
      "reason, "
      "check_output, merge_commit, started_at, ended_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
      "?9, ?10, ?11)");
  s.bind(1, row.run_id)
      .bind(2, row.task_id)
      .bind(3, row.attempt)
      .bind(4, row.status)
      .bind(5, row.execution_id);
  s.bind(6, row.workspace_id)
      .bind(7, row.reason)
      .bind(8, row.check_output)
      .bind(9, row.merge_commit);
  s.bind(10, row.started_at).bind(11, row.ended_at);
  s.run();
}

void RunRepository::update_attempt(const AttemptRow& row) {
  auto s = db_.prepare(
      "UPDATE run_attempts SET status = ?4, execution_id = ?5, workspace_id = ?6, reason = ?7, "
      "check_output = ?8, "
      "merge_commit = ?9, ended_at = ?10, dispatch_us = ?11, scope_warning = ?12, gate_tree = ?13, "
      "gate_onto = ?14, gate_passed = ?15, gate_output = ?16, gate_at = ?17 WHERE run_id = ?1 "
      "AND task_id = ?2 "
      "AND attempt = ?3");
  s.bind(1, row.run_id)
      .bind(2, row.task_id)
      .bind(3, row.attempt)
      .bind(4, row.status)
      .bind(5, row.execution_id);
  s.bind(6, row.workspace_id)
      .bind(7, row.reason)
      .bind(8, row.check_output)
      .bind(9, row.merge_commit);
  s.bind(10, row.ended_at).bind(11, row.dispatch_us).bind(12, row.scope_warning);
  std::optional<std::int64_t> passed;
  if (row.gate_passed) passed = *row.gate_passed ? 1 : 0;
  s.bind(13, row.gate_tree).bind(14, row.gate_onto).bind(15, passed);
  s.bind(16, row.gate_output).bind(17, row.gate_at);
  s.run();
}

std::vector<AttemptRow> RunRepository::attempts(const std::string& run_id) {
  auto s = db_.prepare(std::string(kAttemptSelect) + "WHERE run_id = ?1 ORDER BY task_id, attempt");
  s.bind(1, run_id);
  std::vector<AttemptRow> rows;
  while (s.step()) rows.push_back(read_attempt(s));
  return rows;
}

std::optional<AttemptRow> RunRepository::attempt(const std::string& run_id,
                                                 const std::string& task_id, std::int64_t attempt) {
  auto s = db_.prepare(std::string(kAttemptSelect) +
                       "WHERE run_id = ?1 AND task_id = ?2 AND attempt = ?3");
  s.bind(1, run_id).bind(2, task_id).bind(3, attempt);
  if (!s.step()) return std::nullopt;
  return read_attempt(s);
}

std::optional<AttemptRow> RunRepository::attempt_of_execution(const std::string& execution_id) {
  auto s = db_.prepare(std::string(kAttemptSelect) + "WHERE execution_id = ?1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  return read_attempt(s);
}

std::vector<AttemptRow> RunRepository::attempts_of_tasks(const std::string& run_id,
                                                         std::span<const std::string> task_ids) {
  std::vector<AttemptRow> rows;
  if (task_ids.empty()) return rows;
  std::string sql = std::string(kAttemptSelect) + "WHERE run_id = ?1 AND task_id IN (";
  for (std::size_t i = 0; i < task_ids.size(); ++i)
    sql += (i == 0 ? "?" : ", ?") + std::to_string(i + 2);
  sql += ") ORDER BY task_id, attempt";
  auto s = db_.prepare_once(sql);
  s.bind(1, run_id);
  for (std::size_t i = 0; i < task_ids.size(); ++i) s.bind(static_cast<int>(i + 2), task_ids[i]);
  while (s.step()) rows.push_back(read_attempt(s));
  return rows;
}

std::vector<AttemptRow> RunRepository::latest_attempts(const std::string& run_id) {
  auto s =
      db_.prepare(std::string(kAttemptSelect) +
                  "AS a WHERE run_id = ?1 AND attempt = (SELECT max(attempt) FROM run_attempts b "
                  "WHERE b.run_id = a.run_id AND b.task_id = a.task_id) ORDER BY task_id");
  s.bind(1, run_id);
  std::vector<AttemptRow> rows;
  while (s.step()) rows.push_back(read_attempt(s));
  return rows;
}

void RunRepository::set_attempt_tokens(const std::string& run_id, const std::string& task_id,
                                       std::int64_t attempt, std::optional<std::int64_t> input,
                                       std::optional<std::int64_t> output) {
  auto s = db_.prepare(
      "UPDATE run_attempts SET tokens_input = ?4, tokens_output = ?5 WHERE run_id = ?1 AND task_id "
      "= ?2 AND "
      "attempt = ?3");
  s.bind(1, run_id).bind(2, task_id).bind(3, attempt).bind(4, input).bind(5, output);
  s.run();
}

RunRepository::Totals RunRepository::totals(const std::string& run_id,
                                            const std::optional<std::string>& task_id) {
  // total(), a float, where sum() could overflow on figures an agent made up.
  auto s = db_.prepare(
      "SELECT count(*), "
      "total(CASE WHEN u.execution_id IS NOT NULL THEN u.input_tokens ELSE a.tokens_input END), "
      "total(CASE WHEN u.execution_id IS NOT NULL THEN u.output_tokens ELSE a.tokens_output END), "
      "coalesce(sum(u.execution_id IS NOT NULL OR a.tokens_input IS NOT NULL OR a.tokens_output "
      "IS NOT NULL), 0), coalesce(sum(u.execution_id IS NOT NULL), 0), "
      "total(u.cache_read_tokens), total(u.cache_write_tokens), total(u.cost_usd), "
      "count(u.cost_usd) FROM run_attempts a LEFT JOIN execution_usage u ON u.execution_id = "
      "a.execution_id WHERE a.run_id = ?1 AND (?2 IS NULL OR a.task_id = ?2)");
  s.bind(1, run_id).bind(2, task_id);
  Totals totals;
  if (!s.step()) return totals;
  auto tokens = [&](int column) {
    return static_cast<std::int64_t>(
        std::min(s.real(column), static_cast<double>(limits::kMaxUsageTokens)));
  };
  totals.attempts = s.integer(0);
  totals.tokens_input = tokens(1);
  totals.tokens_output = tokens(2);
  totals.attempts_reporting = s.integer(3);
  totals.attempts_from_stream = s.integer(4);
  totals.cache_read = tokens(5);
  totals.cache_write = tokens(6);
  if (s.integer(8) > 0) totals.cost_usd = std::min(s.real(7), limits::kMaxUsageCostUsd);
  return totals;
}

void RunRepository::add_gate(const std::string& run_id, const GateRow& row) {
  auto s = db_.prepare(
      "INSERT INTO run_gates (run_id, tree, onto, passed, reason, output, at) VALUES "
      "(?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING");
  s.bind(1, run_id)
      .bind(2, row.tree)
      .bind(3, row.onto)
      .bind(4, static_cast<std::int64_t>(row.passed ? 1 : 0))
      .bind(5, row.reason)
      .bind(6, row.output)
      .bind(7, row.at);
  s.run();
}

std::vector<RunRepository::GateRow> RunRepository::gates(const std::string& run_id) {
  auto s = db_.prepare(
      "SELECT tree, onto, passed, reason, output, at FROM run_gates WHERE run_id = ?1 ORDER BY at");
  s.bind(1, run_id);
  std::vector<GateRow> out;
  while (s.step()) {
    GateRow row;
    row.tree = s.text(0);
    row.onto = s.text(1);
    row.passed = s.integer(2) != 0;
    row.reason = s.text(3);
    row.output = s.text(4);
    row.at = s.integer(5);
    out.push_back(std::move(row));
  }
  return out;
}

std::int64_t RunRepository::gate_runs(const std::string& run_id) {
  auto s = db_.prepare("SELECT count(*) FROM run_gates WHERE run_id = ?1");
  s.bind(1, run_id);
  return s.step() ? s.integer(0) : 0;
}

}  // namespace mission::store
