#pragma once
// Token and cost budgets of a workflow run (docs/adr/0049): one for each
// task (its attempts together) and one for the run as a whole, counted
// from the usage already recorded for the attempts' executions (their
// streams, ACP usage updates; else what the agent reported). A turn that
// reaches one is stopped and its task waits "budget reached" until a
// person raises it (mission workflows budget). The budgets are kept in the
// run's options, so a restarted daemon holds them as they were.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"
#include "daemon/store/run_repository.hpp"
#include "shared/usage_limits.hpp"

namespace mission::daemon::runs {

// The largest budgets that can be given: the largest figures a stream may
// state (shared/usage_limits.hpp). More could never be reached.
inline constexpr std::int64_t kMaxBudgetTokens = limits::kMaxUsageTokens;
inline constexpr double kMaxBudgetUsd = limits::kMaxUsageCostUsd;

// Either or both; neither means no budget.
struct Budget {
  std::optional<std::int64_t> tokens;
  std::optional<double> usd;
  bool any() const { return tokens || usd; }
};

// What was used: input plus output tokens (cache tokens are part of the
// input the agent states, or apart from it, and are not added again), and
// the cost the agents stated in USD.
struct Spent {
  std::int64_t tokens = 0;
  double usd = 0;
};

struct RunBudgets {
  Budget task;  // each task's (--budget-tokens, --budget-usd)
  Budget run;   // the run's (--run-budget-tokens, --run-budget-usd)
  // One task's, raised with `mission workflows budget WF --task T`: a field
  // given here replaces the same field of `task`.
  std::map<std::string, Budget> raised;

  Budget of_task(const std::string& task_id) const;
};

// Writes the budgets into a run's options JSON (budgetTokens, budgetUsd,
// runBudgetTokens, runBudgetUsd, taskBudgets {id: {tokens, usd}}).
void put_budgets(nlohmann::json& options, const RunBudgets& budgets);
// Reads them back; throws MissionError invalid_argument naming a budget
// that is not above 0 or past its bound.
RunBudgets budgets_from_json(const nlohmann::json& options);

Spent task_spent(store::Database& db, const std::string& run_id, const std::string& task_id);
Spent run_spent(store::Database& db, const std::string& run_id);

// "task 'docs' used 612 of 500 tokens" (`who` first) once `spent` has
// reached a field of `budget`; nullopt while it is under both.
std::optional<std::string> reached(const Budget& budget, const Spent& spent,
                                   const std::string& who);

// A person's new budget for one task (`task_id`) or for the run.
struct BudgetChange {
  std::optional<std::string> task_id;
  std::optional<std::int64_t> tokens;
  std::optional<double> usd;
};

// Applies `change` to `budgets` once checked against what its task (or
// the run) used: a figure at or below that is refused, saying what was
// used. Throws MissionError invalid_argument.
void apply_change(RunBudgets& budgets, const BudgetChange& change, const Spent& spent,
                  const std::string& who, const std::string& workflow_id);

// "the run used 612 of 500 tokens" while `run` is under way and its own
// budget is reached: it dispatches nothing more until a person raises it.
std::optional<std::string> run_budget_reached(store::Database& db, const store::RunRow& run);

// The tasks that wait at a budget in runs under way, for the inbox:
// [{taskId, taskName, workflowId, workflowName, runId, attempt, reason,
//   scope ("task" or "run"), tokens? {used, budget}, usd? {used, budget},
//   since}], oldest first; then each run whose own budget is reached with
// none of its agents at work and tasks left to start: [{workflowId,
// workflowName, runId, scope "run", reason, tasksWaiting, tokens?, usd?,
// since}].
nlohmann::json budget_waits(store::Database& db);

}  // namespace mission::daemon::runs
