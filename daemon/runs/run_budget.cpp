#include "daemon/runs/run_budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "daemon/store/inbox_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::runs {
namespace {

// "$0.25", "$0.0831", "$12.50": cents at least, tenths of a cent as given.
std::string dollars(double usd) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4f", usd);
  std::string out = text;
  while (out.size() > 1 && out.back() == '0' && out.find('.') + 3 < out.size()) out.pop_back();
  return "$" + out;
}

Spent spent_of(const store::RunRepository::Totals& totals) {
  return {std::min(totals.tokens_input + totals.tokens_output, kMaxBudgetTokens),
          totals.cost_usd.value_or(0)};
}

[[noreturn]] void refuse(const std::string& field, const std::string& what,
                         const std::string& hint) {
  throw MissionError(ErrorCode::invalid_argument, what, hint, {{"field", field}});
}

std::optional<std::int64_t> tokens_at(const nlohmann::json& j, const char* key, const char* flag) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  const nlohmann::json& value = j.at(key);
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
      value.get<std::int64_t>() > kMaxBudgetTokens) {
    refuse(key, std::string(flag) + " " + value.dump() + " is not a budget of tokens",
           "give a whole number of tokens from 1 to " + std::to_string(kMaxBudgetTokens));
  }
  return value.get<std::int64_t>();
}

std::optional<double> usd_at(const nlohmann::json& j, const char* key, const char* flag) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  const nlohmann::json& value = j.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0 ||
      value.get<double>() > kMaxBudgetUsd) {
    refuse(key, std::string(flag) + " " + value.dump() + " is not a budget in USD",
           "give an amount above 0 and at most 1000000000, e.g. 2.50");
  }
  return value.get<double>();
}

}  // namespace

Budget RunBudgets::of_task(const std::string& task_id) const {
  Budget budget = task;
  auto found = raised.find(task_id);
  if (found != raised.end()) {
    if (found->second.tokens) budget.tokens = found->second.tokens;
    if (found->second.usd) budget.usd = found->second.usd;
  }
  return budget;
}

void put_budgets(nlohmann::json& options, const RunBudgets& budgets) {
  if (budgets.task.tokens) options["budgetTokens"] = *budgets.task.tokens;
  if (budgets.task.usd) options["budgetUsd"] = *budgets.task.usd;
  if (budgets.run.tokens) options["runBudgetTokens"] = *budgets.run.tokens;
  if (budgets.run.usd) options["runBudgetUsd"] = *budgets.run.usd;
  if (budgets.raised.empty()) return;
  nlohmann::json raised = nlohmann::json::object();
  for (const auto& [task_id, budget] : budgets.raised) {
    nlohmann::json entry = nlohmann::json::object();
    if (budget.tokens) entry["tokens"] = *budget.tokens;
    if (budget.usd) entry["usd"] = *budget.usd;
    raised[task_id] = std::move(entry);
  }
  options["taskBudgets"] = std::move(raised);
}

RunBudgets budgets_from_json(const nlohmann::json& options) {
  RunBudgets budgets;
  budgets.task.tokens = tokens_at(options, "budgetTokens", "--budget-tokens");
  budgets.task.usd = usd_at(options, "budgetUsd", "--budget-usd");
  budgets.run.tokens = tokens_at(options, "runBudgetTokens", "--run-budget-tokens");
  budgets.run.usd = usd_at(options, "runBudgetUsd", "--run-budget-usd");
  if (options.is_object() && options.contains("taskBudgets") &&
      options.at("taskBudgets").is_object()) {
    for (const auto& [task_id, entry] : options.at("taskBudgets").items()) {
      budgets.raised[task_id] = {tokens_at(entry, "tokens", "--tokens"),
                                 usd_at(entry, "usd", "--usd")};
    }
  }
  return budgets;
}

Spent task_spent(store::Database& db, const std::string& run_id, const std::string& task_id) {
  return spent_of(store::RunRepository(db).totals(run_id, task_id));
}

Spent run_spent(store::Database& db, const std::string& run_id) {
  return spent_of(store::RunRepository(db).totals(run_id));
}

std::optional<std::string> reached(const Budget& budget, const Spent& spent,
                                   const std::string& who) {
  if (budget.tokens && spent.tokens >= *budget.tokens) {
    return who + " used " + std::to_string(spent.tokens) + " of " + std::to_string(*budget.tokens) +
           " tokens";
  }
  if (budget.usd && spent.usd >= *budget.usd)
    return who + " used " + dollars(spent.usd) + " of " + dollars(*budget.usd);
  return std::nullopt;
}

void apply_change(RunBudgets& budgets, const BudgetChange& change, const Spent& spent,
                  const std::string& who, const std::string& workflow_id) {
  if (!change.tokens && !change.usd)
    refuse("tokens", "no budget given", "give --tokens N, --usd X or both");
  // Checked as the run's options are, then against what was used.
  nlohmann::json given = nlohmann::json::object();
  if (change.tokens) given["tokens"] = *change.tokens;
  if (change.usd) given["usd"] = *change.usd;
  const Budget budget{tokens_at(given, "tokens", "--tokens"), usd_at(given, "usd", "--usd")};
  const std::string status = "mission workflows status " + workflow_id;
  if (budget.tokens && *budget.tokens <= spent.tokens) {
    refuse("tokens",
           who + " has already used " + std::to_string(spent.tokens) + " tokens: a budget of " +
               std::to_string(*budget.tokens) + " would be reached at once",
           "give more than " + std::to_string(spent.tokens) + " tokens (" + status +
               " shows what each task used)");
  }
  if (budget.usd && *budget.usd <= spent.usd) {
    refuse("usd",
           who + " has already used " + dollars(spent.usd) + ": a budget of " +
               dollars(*budget.usd) + " would be reached at once",
           "give more than " + dollars(spent.usd) + " (" + status + " shows what each task used)");
  }
  Budget& target = change.task_id ? budgets.raised[*change.task_id] : budgets.run;
  if (budget.tokens) target.tokens = budget.tokens;
  if (budget.usd) target.usd = budget.usd;
}

std::optional<std::string> run_budget_reached(store::Database& db, const store::RunRow& run) {
  if (run.status != RunStatus::running) return std::nullopt;
  const RunBudgets budgets = budgets_from_json(nlohmann::json::parse(run.options, nullptr, false));
  if (!budgets.run.any()) return std::nullopt;
  return reached(budgets.run, run_spent(db, run.id), "the run");
}

namespace {

// Each run under way whose own budget is reached while none of its agents
// runs and a task of it waits to start: no attempt ended at the budget to
// list, yet the run waits for a person all the same. A run with a task
// listed at the run's budget already names the same raise.
void put_run_waits(store::Database& db, nlohmann::json& out) {
  store::RunRepository runs(db);
  store::PlanRepository plans(db);
  for (const store::RunRow& run : runs.live()) {
    if (out.size() >= store::kMaxInboxEntries) return;
    if (run.status != RunStatus::running) continue;
    const bool listed = std::any_of(out.begin(), out.end(), [&](const nlohmann::json& item) {
      return item.value("runId", "") == run.id && item.value("scope", "") == "run";
    });
    if (listed) continue;
    auto note = run_budget_reached(db, run);
    if (!note) continue;
    const RunBudgets budgets =
        budgets_from_json(nlohmann::json::parse(run.options, nullptr, false));
    const Spent used = run_spent(db, run.id);
    std::int64_t since = run.created_at;
    bool running = false;
    for (const store::AttemptRow& attempt : runs.attempts(run.id)) {
      if (!attempt.ended_at) running = true;
      since = std::max(since, attempt.ended_at.value_or(attempt.started_at));
    }
    if (running) continue;
    // Ready to start (a task given up on is failed, not pending).
    std::size_t waiting = 0;
    for (const store::PlannedTaskRow& task : plans.planned_tasks(run.workflow_id)) {
      if (task.status == TaskStatus::pending) ++waiting;
    }
    if (waiting == 0) continue;
    nlohmann::json item = {
        {"workflowId", run.workflow_id},
        {"runId", run.id},
        {"scope", "run"},
        {"reason", "budget reached: " + *note + "; " + std::to_string(waiting) +
                       (waiting == 1 ? " task waits" : " tasks wait") + " to start"},
        {"tasksWaiting", waiting},
        {"since", format_utc_iso8601(since)}};
    if (auto workflow = store::MissionRepository(db).find(run.workflow_id))
      item["workflowName"] = workflow->name;
    if (budgets.run.tokens)
      item["tokens"] = {{"used", used.tokens}, {"budget", *budgets.run.tokens}};
    if (budgets.run.usd) item["usd"] = {{"used", used.usd}, {"budget", *budgets.run.usd}};
    out.push_back(std::move(item));
  }
}

}  // namespace

nlohmann::json budget_waits(store::Database& db) {
  nlohmann::json out = nlohmann::json::array();
  store::RunRepository runs(db);
  for (const store::WaitingTask& wait :
       store::InboxRepository(db).budget_reached(store::kMaxInboxEntries)) {
    nlohmann::json item = {{"taskId", wait.task_id},
                           {"taskName", wait.task_name},
                           {"workflowId", wait.workflow_id},
                           {"workflowName", wait.workflow_name},
                           {"runId", wait.run_id},
                           {"attempt", wait.attempt},
                           {"since", format_utc_iso8601(wait.since)}};
    if (wait.reason) item["reason"] = *wait.reason;
    if (wait.execution_id) item["agentExecutionId"] = *wait.execution_id;
    // Which budget holds it now: its task's first, else the run's.
    auto run = runs.find(wait.run_id);
    if (run) {
      const RunBudgets budgets =
          budgets_from_json(nlohmann::json::parse(run->options, nullptr, false));
      const Budget task = budgets.of_task(wait.task_id);
      const Spent task_use = task_spent(db, wait.run_id, wait.task_id);
      const bool by_task = reached(task, task_use, "").has_value();
      const Budget& budget = by_task ? task : budgets.run;
      const Spent use = by_task ? task_use : run_spent(db, wait.run_id);
      item["scope"] = by_task ? "task" : "run";
      if (budget.tokens) item["tokens"] = {{"used", use.tokens}, {"budget", *budget.tokens}};
      if (budget.usd) item["usd"] = {{"used", use.usd}, {"budget", *budget.usd}};
    }
    out.push_back(std::move(item));
  }
  put_run_waits(db, out);
  return out;
}

}  // namespace mission::daemon::runs
