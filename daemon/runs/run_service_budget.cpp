// The run's budgets (docs/adr/0049), apart from the scheduler's file: a
// running attempt whose task (or run) reaches its budget is stopped, and
// the task waits, its worktree kept, until a person raises the budget;
// then a new attempt goes on in that worktree, told why the last stopped.

#include <algorithm>

#include "daemon/planning/planning_support.hpp"
#include "daemon/runs/run_service.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::runs {
namespace {

std::string task_who(const std::string& name) {
  return "task '" + name + "'";
}

}  // namespace

void RunService::check_budget(const std::string& execution_id) {
  auto found = by_execution_.find(execution_id);
  if (found == by_execution_.end()) return;
  const auto [run_id, node] = found->second;
  ActiveRun* run = find(run_id);
  if (!run || run->stopping) return;
  TaskSlot& slot = run->tasks[node];
  if (slot.execution_id != execution_id || slot.state != SlotState::running) return;
  const RunBudgets& budgets = run->options.budgets;
  if (!slot.budget_stopped) {
    const Budget budget = budgets.of_task(slot.id);
    if (budget.any()) {
      if (auto note =
              reached(budget, task_spent(services_.db, run_id, slot.id), task_who(slot.name)))
        stop_at_budget(slot, *note);
    }
  }
  if (!budgets.run.any()) return;
  auto note = reached(budgets.run, run_spent(services_.db, run_id), "the run");
  if (!note) return;
  // The run's budget holds every agent of the run, not only the one that
  // reported.
  for (TaskSlot& each : run->tasks) {
    if (each.state == SlotState::running && !each.budget_stopped) stop_at_budget(each, *note);
  }
}

void RunService::stop_at_budget(TaskSlot& slot, const std::string& note) {
  slot.budget_stopped = true;
  slot.budget_note = note;
  // As `mission exec stop` does: an ACP turn gets session/cancel first,
  // any other agent SIGTERM, SIGKILL after the grace period.
  services_.launcher.stop(slot.execution_id, false);
}

bool RunService::ended_at_budget(ActiveRun& run, std::size_t node) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  slot.budget_stopped = false;
  auto row = store::ExecutionRepository(db).find(slot.execution_id);
  // It finished its turn before the stop reached it: its work is whole.
  if (row && row->state == ExecutionState::completed) return false;
  slot.timeout.reset();
  slot.state = SlotState::budget_reached;
  slot.budget_attempts += 1;
  const std::string reason = "budget reached: " + slot.budget_note;
  {
    events::EventBatch events(services_.events);
    store::Transaction transaction(db);
    update_attempt(
        run, node,
        [&](store::AttemptRow& a) {
          a.status = AttemptStatus::budget_reached;
          a.reason = reason;
          a.ended_at = unix_ms_now();
        },
        events);
    // Not failed and not retried: it is ready again, for the attempt that
    // goes on once the budget is raised.
    auto status = store::PlanRepository(db).task_status(slot.id);
    if (status && *status != TaskStatus::pending && !is_done(*status))
      set_task_status(slot.id, TaskStatus::pending, std::nullopt);
    transaction.commit();
    events.publish_to(services_.events);
  }
  // Its worktree stays for the attempt that goes on.
  slot.execution_id.clear();
  schedule_pump(run.row.id);
  return true;
}

store::RunRow RunService::set_budget(const std::string& workflow_id, const BudgetChange& change) {
  store::Database& db = services_.db;
  planning::require_workflow(db, workflow_id, "id");
  auto live = store::RunRepository(db).live_of(workflow_id);
  ActiveRun* run = live ? find(live->id) : nullptr;
  if (!run || run->stopping) {
    throw MissionError(ErrorCode::not_found, "workflow " + workflow_id + " has no run under way",
                       "a budget belongs to a run: give it with mission workflows run " +
                           workflow_id + " --budget-tokens N",
                       {{"workflow_id", workflow_id}});
  }
  std::string who = "the run";
  Spent spent;
  if (change.task_id) {
    auto slot = std::find_if(run->tasks.begin(), run->tasks.end(),
                             [&](const TaskSlot& each) { return each.id == *change.task_id; });
    if (slot == run->tasks.end()) {
      throw MissionError(ErrorCode::not_found,
                         "the run of workflow " + workflow_id + " has no task " + *change.task_id,
                         "mission workflows status " + workflow_id + " lists its tasks",
                         {{"task_id", *change.task_id}, {"workflow_id", workflow_id}});
    }
    who = task_who(slot->name);
    spent = task_spent(db, run->row.id, slot->id);
  } else {
    spent = run_spent(db, run->row.id);
  }
  RunBudgets budgets = run->options.budgets;
  apply_change(budgets, change, spent, who, workflow_id);
  run->options.budgets = std::move(budgets);
  // Stored whole, as the run's other options are: a restarted daemon
  // holds the new budget. The environment is never in it.
  nlohmann::json stored = nlohmann::json::parse(live->options, nullptr, false);
  if (!stored.is_object()) stored = nlohmann::json::object();
  for (const char* key :
       {"budgetTokens", "budgetUsd", "runBudgetTokens", "runBudgetUsd", "taskBudgets"})
    stored.erase(key);
  put_budgets(stored, run->options.budgets);
  {
    store::Transaction transaction(db);
    store::RunRepository(db).set_options(run->row.id, stored.dump());
    transaction.commit();
  }
  run->row.options = stored.dump();
  resume_budget_waits(*run);
  return run->row;
}

void RunService::resume_budget_waits(ActiveRun& run) {
  store::Database& db = services_.db;
  const RunBudgets& budgets = run.options.budgets;
  if (reached(budgets.run, run_spent(db, run.row.id), "")) return;
  bool any = false;
  for (TaskSlot& slot : run.tasks) {
    if (slot.state != SlotState::budget_reached) continue;
    if (reached(budgets.of_task(slot.id), task_spent(db, run.row.id, slot.id), "")) continue;
    // A new attempt in the same worktree, launched by the pump as one
    // whose worktree is ready; what failed before it is its own prompt's.
    slot.budget_resume = "attempt " + std::to_string(slot.attempts) +
                         " stopped: " + task_who(slot.name) + " reached its budget (" +
                         slot.budget_note + ")";
    slot.last_failure.reset();
    slot.last_check_output.reset();
    slot.last_gate_output.reset();
    any = true;
    if (slot.workspace_id.empty()) {
      // Its worktree is gone (removed by hand): a fresh one is made.
      slot.state = SlotState::waiting;
      continue;
    }
    slot.attempts += 1;
    slot.state = SlotState::prepared;
    slot.launch_when_ready = true;
  }
  // Tasks held back by the run's budget are dispatched again too.
  if (any || budgets.run.any()) schedule_pump(run.row.id);
}

void RunService::leave_budget_wait(ActiveRun& run, std::size_t node) {
  TaskSlot& slot = run.tasks[node];
  slot.state = SlotState::waiting;
  // Its branch is kept, as any unmerged attempt's.
  retire_worktree(slot, WorkspaceStatus::abandoned);
}

void RunService::restore_budget_wait(ActiveRun& run, std::size_t node,
                                     const store::AttemptRow& attempt) {
  TaskSlot& slot = run.tasks[node];
  if (attempt.status != AttemptStatus::budget_reached) {
    // A later attempt went on from it.
    if (slot.state == SlotState::budget_reached) slot.state = SlotState::waiting;
    return;
  }
  slot.budget_attempts += 1;
  slot.state = SlotState::budget_reached;
  const std::string prefix = "budget reached: ";
  slot.budget_note = attempt.reason.value_or("");
  if (slot.budget_note.rfind(prefix, 0) == 0) slot.budget_note.erase(0, prefix.size());
  slot.execution_id.clear();
  slot.workspace_id.clear();
  if (!attempt.workspace_id) return;
  if (auto workspace = store::WorkspaceRepository(services_.db).find(*attempt.workspace_id)) {
    slot.workspace_id = workspace->id;
    slot.worktree = workspace->path;
    slot.branch = workspace->branch;
    slot.base_commit = workspace->base_commit.value_or("");
  }
}

bool RunService::run_at_budget(ActiveRun& run) {
  const Budget& budget = run.options.budgets.run;
  return budget.any() && reached(budget, run_spent(services_.db, run.row.id), "").has_value();
}

Spent RunService::task_left(const ActiveRun& run, const TaskSlot& slot) {
  const Budget budget = run.options.budgets.of_task(slot.id);
  if (!budget.any()) return {};
  const Spent used = task_spent(services_.db, run.row.id, slot.id);
  Spent left;
  if (budget.tokens) left.tokens = std::max<std::int64_t>(0, *budget.tokens - used.tokens);
  if (budget.usd) left.usd = std::max(0.0, *budget.usd - used.usd);
  return left;
}

bool RunService::fits_run_budget(ActiveRun& run, const TaskSlot& slot) {
  const Budget& budget = run.options.budgets.run;
  if (!budget.any()) return true;
  // Each task dispatched (its worktree on the way or ready, or its agent
  // at work) holds what its own budget still allows; a task with no
  // budget of its own holds nothing, its cost being unknown until stated.
  Spent held;
  bool alone = true;
  for (const TaskSlot& each : run.tasks) {
    if (&each == &slot) continue;
    if (each.state != SlotState::preparing && each.state != SlotState::prepared &&
        each.state != SlotState::running)
      continue;
    alone = false;
    const Spent left = task_left(run, each);
    held.tokens += left.tokens;
    held.usd += left.usd;
  }
  // Alone, a task starts while the run has anything left (pick checked
  // that): its own budget larger than the rest must not hold it for ever.
  if (alone) return true;
  const Spent spent = run_spent(services_.db, run.row.id);
  const Spent own = task_left(run, slot);
  // Room for its whole budget beside the others', and above nothing when
  // it has none: tasks that run together never stop each other at the
  // run's budget.
  if (budget.tokens) {
    const std::int64_t room = *budget.tokens - spent.tokens - held.tokens;
    if (room <= 0 || room < own.tokens) return false;
  }
  if (budget.usd) {
    const double room = *budget.usd - spent.usd - held.usd;
    if (room <= 0 || room < own.usd) return false;
  }
  return true;
}

bool RunService::waits_for_run_budget(ActiveRun& run) {
  if (!run_at_budget(run)) return false;
  return std::any_of(run.tasks.begin(), run.tasks.end(), [&](const TaskSlot& slot) {
    return slot.state == SlotState::waiting && counted_attempts(slot) < run.options.max_attempts;
  });
}

}  // namespace mission::daemon::runs
