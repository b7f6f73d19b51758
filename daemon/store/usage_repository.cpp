#include "daemon/store/usage_repository.hpp"

#include <algorithm>
#include <cmath>

#include "shared/usage_limits.hpp"

namespace mission::store {
namespace {

// Each execution with figures: its stream's when it has them, else what its
// agent reported on its run attempt (tokens in and out only).
constexpr std::string_view kFigures = R"sql(
WITH figures AS (
  SELECT e.id AS execution_id, e.created_at, e.adapter, e.agent_name,
         r.workflow_id, m.name AS workflow_name, t.name AS task_name, a.attempt,
         u.execution_id IS NOT NULL AS from_stream,
         u.execution_id IS NULL AS from_report,
         CASE WHEN u.execution_id IS NOT NULL THEN u.input_tokens ELSE a.tokens_input END AS input,
         CASE WHEN u.execution_id IS NOT NULL THEN u.output_tokens ELSE a.tokens_output END AS output,
         u.cache_read_tokens AS cache_read, u.cache_write_tokens AS cache_write, u.cost_usd AS cost
  FROM executions e
  LEFT JOIN execution_usage u ON u.execution_id = e.id
  LEFT JOIN run_attempts a ON a.execution_id = e.id
  LEFT JOIN runs r ON r.id = a.run_id
  LEFT JOIN missions m ON m.id = r.workflow_id
  LEFT JOIN tasks t ON t.id = a.task_id
  WHERE e.created_at >= ?1
    AND (u.execution_id IS NOT NULL OR a.tokens_input IS NOT NULL OR a.tokens_output IS NOT NULL)
)
)sql";

// Sums are total() (a float, which never overflows as sum() can), cut to
// the bound; count() says whether any execution had the field.
constexpr std::string_view kSums =
    "count(*), sum(from_stream), sum(from_report), max(created_at), "
    "total(input), count(input), total(output), count(output), total(cache_read), "
    "count(cache_read), total(cache_write), count(cache_write), total(cost), count(cost)";

std::optional<std::int64_t> tokens_at(const Statement& s, int column) {
  if (s.integer(column + 1) == 0) return std::nullopt;
  const double sum = s.real(column);
  return sum >= static_cast<double>(limits::kMaxUsageTokens) ? limits::kMaxUsageTokens
                                                             : static_cast<std::int64_t>(sum);
}

// The columns of kSums from `first` on.
UsageSum read_sum(const Statement& s, int first) {
  UsageSum sum;
  sum.executions = s.integer(first);
  sum.from_stream = s.integer(first + 1);
  sum.from_reports = s.integer(first + 2);
  sum.last_at = s.integer(first + 3);
  sum.usage.input_tokens = tokens_at(s, first + 4);
  sum.usage.output_tokens = tokens_at(s, first + 6);
  sum.usage.cache_read_tokens = tokens_at(s, first + 8);
  sum.usage.cache_write_tokens = tokens_at(s, first + 10);
  if (s.integer(first + 13) > 0)
    sum.usage.cost_usd = std::min(s.real(first + 12), limits::kMaxUsageCostUsd);
  return sum;
}

}  // namespace

void UsageRepository::put(const UsageRow& row) {
  auto s = db_.prepare_once(
      "INSERT INTO execution_usage (execution_id, source, input_tokens, output_tokens, "
      "cache_read_tokens, cache_write_tokens, cost_usd, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, "
      "?6, ?7, ?8) ON CONFLICT (execution_id) DO UPDATE SET source = ?2, input_tokens = ?3, "
      "output_tokens = ?4, cache_read_tokens = ?5, cache_write_tokens = ?6, cost_usd = ?7, "
      "updated_at = ?8");
  s.bind(1, row.execution_id)
      .bind(2, row.source)
      .bind(3, row.usage.input_tokens)
      .bind(4, row.usage.output_tokens)
      .bind(5, row.usage.cache_read_tokens)
      .bind(6, row.usage.cache_write_tokens)
      .bind(7, row.usage.cost_usd)
      .bind(8, row.updated_at);
  s.run();
}

std::optional<UsageRow> UsageRepository::find(const std::string& execution_id) {
  auto s = db_.prepare_once(
      "SELECT source, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
      "cost_usd, updated_at FROM execution_usage WHERE execution_id = ?1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  UsageRow row;
  row.execution_id = execution_id;
  row.source = s.text(0);
  row.usage.input_tokens = s.optional_integer(1);
  row.usage.output_tokens = s.optional_integer(2);
  row.usage.cache_read_tokens = s.optional_integer(3);
  row.usage.cache_write_tokens = s.optional_integer(4);
  if (!s.is_null(5)) row.usage.cost_usd = s.real(5);
  row.updated_at = s.integer(6);
  return row;
}

std::vector<UsageGroup> UsageRepository::by_workflow(std::int64_t since, std::size_t limit) {
  // A group's other columns are the same on each of its rows; max() picks
  // that one, as PostgreSQL requires of a column outside GROUP BY.
  auto s = db_.prepare(std::string(kFigures) +
                       "SELECT coalesce(workflow_id, execution_id), max(workflow_id) IS NOT NULL, "
                       "max(CASE WHEN workflow_id IS NOT NULL THEN workflow_name ELSE agent_name "
                       "END), max(adapter), " +
                       std::string(kSums) +
                       " FROM figures GROUP BY 1 ORDER BY max(created_at) DESC, 1 LIMIT ?2");
  s.bind(1, since).bind(2, static_cast<std::int64_t>(limit));
  std::vector<UsageGroup> groups;
  while (s.step()) {
    UsageGroup group;
    group.id = s.text(0);
    group.workflow = s.integer(1) != 0;
    group.name = s.optional_text(2).value_or("");
    if (!group.workflow) group.adapter = s.text(3);
    group.sum = read_sum(s, 4);
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<UsageGroup> UsageRepository::of_workflow(const std::string& workflow_id,
                                                     std::int64_t since, std::size_t limit) {
  auto s = db_.prepare(std::string(kFigures) +
                       "SELECT execution_id, max(agent_name), max(adapter), max(task_name), "
                       "max(attempt), " +
                       std::string(kSums) +
                       " FROM figures WHERE workflow_id = ?2 GROUP BY execution_id "
                       "ORDER BY max(created_at) DESC, execution_id LIMIT ?3");
  s.bind(1, since).bind(2, workflow_id).bind(3, static_cast<std::int64_t>(limit));
  std::vector<UsageGroup> groups;
  while (s.step()) {
    UsageGroup group;
    group.id = s.text(0);
    group.name = s.optional_text(1).value_or("");
    group.adapter = s.text(2);
    group.task_name = s.optional_text(3).value_or("");
    group.attempt = s.optional_integer(4).value_or(0);
    group.sum = read_sum(s, 5);
    groups.push_back(std::move(group));
  }
  return groups;
}

UsageSum UsageRepository::total(std::int64_t since, const std::optional<std::string>& workflow_id) {
  auto s = db_.prepare(std::string(kFigures) + "SELECT " + std::string(kSums) +
                       " FROM figures WHERE ?2 IS NULL OR workflow_id = ?2");
  s.bind(1, since).bind(2, workflow_id);
  if (!s.step()) return {};
  return read_sum(s, 0);
}

}  // namespace mission::store
