#include "daemon/runs/run_service.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/coordination/coordination.hpp"
#include "daemon/execution/agent_launch.hpp"
#include "daemon/execution/refused_write_record.hpp"
#include "daemon/git/worktrees.hpp"
#include "daemon/loop/work_queue.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/runs/change_scope.hpp"
#include "daemon/runs/conflict_patch.hpp"
#include "daemon/runs/run_environment.hpp"
#include "daemon/runs/run_report.hpp"
#include "daemon/runs/task_prompt.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "daemon/tasks/task_lifecycle.hpp"
#include "daemon/workspaces/workspaces.hpp"
#include "shared/agent_environment.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::runs {
namespace {

std::string describe_end(const store::ExecutionRow& row, bool timed_out, std::int64_t timeout_ms) {
  if (timed_out)
    return "the agent ran longer than --task-timeout (" + std::to_string(timeout_ms / 1000) +
           " s) and was stopped";
  switch (row.state) {
    case ExecutionState::failed:
      if (row.exit_signal)
        return "the agent was killed by signal " + std::to_string(*row.exit_signal);
      if (row.exit_code) return "the agent exited with status " + std::to_string(*row.exit_code);
      return "the agent could not start (see mission exec logs " + row.id + ")";
    case ExecutionState::cancelled:
      return "the agent was stopped";
    case ExecutionState::lost:
      return "the agent was lost (the daemon restarted while it ran)";
    default:
      return "the agent ended " + std::string(name_of(row.state));
  }
}

}  // namespace

RunService::RunService(RunServices services)
    : services_(services),
      live_(std::make_unique<LiveConflicts>(
          LiveConflicts::Services{services.loop, services.db, services.events, &services.launcher,
                                  services.trees},
          [this](const std::string& run_id) { schedule_pump(run_id); })),
      judge_turn_(services.loop,
                  [this] {
                    std::vector<std::string> ended;
                    ended.swap(ended_);
                    for (const auto& id : ended) on_execution_ended(id);
                  }),
      pump_turn_(services.loop, [this] {
        retired_checks_.clear();
        // Read on the turn after the call that recorded them has committed
        // (a rolled-back one left nothing to find).
        std::vector<std::string> activated;
        activated.swap(to_activate_);
        for (const auto& id : activated) {
          auto row = store::RunRepository(services_.db).find(id);
          if (!row || is_final(row->status) || find(id)) continue;
          try {
            load(*row);
            to_pump_.push_back(id);
          } catch (const std::exception& e) {
            std::fprintf(stderr, "missiond: cannot start run %s: %s\n", id.c_str(), e.what());
          }
        }
        std::vector<std::string> ids;
        ids.swap(to_pump_);
        for (const auto& id : ids) {
          if (ActiveRun* run = find(id)) pump(*run);
        }
      }) {
  end_observer_ = services_.launcher.add_end_observer([this](const std::string& id) {
    if (by_execution_.count(id) == 0) return;
    ended_.push_back(id);
    judge_turn_.schedule();
  });
  usage_watch_ = std::make_unique<UsageWatch>(services_.loop, services_.launcher,
                                              [this](const std::string& id) { check_budget(id); });
}

RunService::~RunService() {
  *alive_ = false;
  services_.launcher.remove_end_observer(end_observer_);
}

std::function<void()> RunService::guarded(std::function<void()> done) const {
  return [alive = alive_, done = std::move(done)] {
    if (*alive) done();
  };
}

bool RunService::is_busy(SlotState state) {
  switch (state) {
    case SlotState::preparing:
    case SlotState::prepared:
    case SlotState::running:
    case SlotState::judging:
    case SlotState::awaiting_approval:
    case SlotState::queued:
    case SlotState::merging:
    case SlotState::budget_reached:
      return true;
    default:
      return false;
  }
}

RunService::ActiveRun* RunService::find(const std::string& run_id) {
  auto found = runs_.find(run_id);
  return found == runs_.end() ? nullptr : found->second.get();
}

RunService::TaskSlot* RunService::slot_at(const std::string& run_id, std::size_t node,
                                          std::int64_t attempt) {
  ActiveRun* run = find(run_id);
  if (!run || node >= run->tasks.size() || run->tasks[node].attempts != attempt) return nullptr;
  return &run->tasks[node];
}

// --- starting -------------------------------------------------------------

RunStart RunService::plan_start(const std::string& workflow_id, RunOptions options) {
  store::Database& db = services_.db;
  store::MissionRow workflow = planning::require_workflow(db, workflow_id, "id");
  if (is_final(workflow.status)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + workflow.id + " has ended (" + std::string(name_of(workflow.status)) + ")",
        "run a workflow that still has work to do", {{"workflow_id", workflow.id}});
  }
  if (workflow.status == MissionStatus::planning || workflow.status == MissionStatus::paused) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " is " + std::string(name_of(workflow.status)),
                       workflow.status == MissionStatus::planning
                           ? "give it a plan first (workflow_set_plan), then run it"
                           : "resume it with workflow_update_status, then run it",
                       {{"workflow_id", workflow.id}});
  }
  if (store::PlanRepository(db).planned_tasks(workflow.id).empty()) {
    throw MissionError(
        ErrorCode::invalid_argument, "workflow " + workflow.id + " has no planned tasks",
        "give it a plan with tasks (workflow_set_plan)", {{"workflow_id", workflow.id}});
  }
  if (auto live = store::RunRepository(db).live_of(workflow.id)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " is already running (" + live->id + ")",
                       "follow it with mission workflows status " + workflow.id +
                           ", or stop it with mission "
                           "workflows stop " +
                           workflow.id,
                       {{"workflow_id", workflow.id}, {"run_id", live->id}});
  }
  adapters::require_adapter(options.adapter);
  RunStart start;
  start.id = new_random_id("run-", 10);
  start.workflow_id = workflow.id;
  start.repository = workspaces::repository_of(db, workflow);
  start.branch = "mission/run/" + workflow.id;
  start.adopt_branch = store::RunRepository(db).latest_of(workflow.id).has_value();
  start.options = std::move(options);
  return start;
}

void RunService::run_start(RunStart& start) {
  auto root = git::main_work_tree(start.repository);
  if (!root) {
    throw MissionError(
        ErrorCode::invalid_argument, start.repository + " is not in a git repository",
        "a run gives each task a worktree: create or register the workflow in a git repository");
  }
  start.repository = *root;
  start.base_commit = git::ensure_branch(start.repository, start.branch,
                                         start.options.base.value_or(""), start.adopt_branch);
}

store::RunRow RunService::record_start(const RunStart& start, events::EventBatch& events) {
  store::RunRow row;
  row.id = start.id;
  row.workflow_id = start.workflow_id;
  row.status = RunStatus::running;
  row.options = options_json(start.options).dump();
  save_run_environment(services_.paths, row.id, start.options.env);
  row.repository = start.repository;
  row.integration_branch = start.branch;
  row.base_commit = start.base_commit;
  row.created_at = unix_ms_now();
  store::RunRepository(services_.db).insert(row);
  if (events.wanted()) {
    events.add({{"type", kRunUpdated},
                {"runId", row.id},
                {"workflowId", row.workflow_id},
                {"run", {{"id", row.id}, {"status", row.status}}}});
  }
  return row;
}

void RunService::activate(const std::string& run_id) {
  to_activate_.push_back(run_id);
  pump_turn_.schedule();
}

void RunService::load(const store::RunRow& row) {
  store::Database& db = services_.db;
  auto run = std::make_unique<ActiveRun>();
  run->row = row;
  run->options = options_from_json(nlohmann::json::parse(row.options));
  if (auto env = load_run_environment(services_.paths, row.id)) {
    run->options.env = std::move(*env);
  } else {
    // Its file went with the runtime dir (a reboot): the daemon's own
    // environment is the person's nearest.
    run->options.env = process_environment();
    std::fprintf(
        stderr,
        "missiond: run %s resumes with the daemon's environment: the one it started with is gone\n",
        row.id.c_str());
  }
  run->workflow_name = planning::require_workflow(db, row.workflow_id, "id").name;
  // Loaded afresh: the DAG's shape is fixed while the run holds it.
  run->plan = std::make_shared<planning::PlanState>(planning::load_plan_state(db, row.workflow_id));
  run->tasks.resize(run->plan->tasks.size());
  for (std::size_t i = 0; i < run->plan->tasks.size(); ++i) {
    TaskSlot& slot = run->tasks[i];
    slot.id = run->plan->tasks[i].id;
    slot.name = run->plan->tasks[i].name;
    // Done before the run began (or by someone else): as good as merged.
    if (is_done(run->plan->tasks[i].status)) slot.state = SlotState::merged;
  }
  std::map<std::string, std::size_t> node_of;
  for (std::size_t i = 0; i < run->tasks.size(); ++i) node_of[run->tasks[i].id] = i;
  for (const store::AttemptRow& attempt : store::RunRepository(db).attempts(row.id)) {
    auto found = node_of.find(attempt.task_id);
    if (found == node_of.end()) continue;
    TaskSlot& slot = run->tasks[found->second];
    slot.attempts = std::max(slot.attempts, attempt.attempt);
    restore_budget_wait(*run, found->second, attempt);
    if (attempt.status == AttemptStatus::merged) {
      slot.state = SlotState::merged;
      slot.merge_commit = attempt.merge_commit.value_or("");
      // What it changed is read again from git when a conflict needs it.
      slot.changed_paths_lost = true;
      if (attempt.workspace_id) {
        if (auto workspace = store::WorkspaceRepository(db).find(*attempt.workspace_id))
          slot.base_commit = workspace->base_commit.value_or("");
      }
    }
    if (attempt.status == AttemptStatus::failed || attempt.status == AttemptStatus::conflicted) {
      slot.last_failure = attempt.reason;
      slot.last_check_output = attempt.check_output;
      slot.last_gate_output.reset();
      if (attempt.gate_passed == false) slot.last_gate_output = attempt.gate_output;
      // A conflict sent back to the agent is retried like a failure; the
      // last attempt's waits for a person.
      if (counted_attempts(slot) >= run->options.max_attempts) {
        slot.state =
            attempt.status == AttemptStatus::conflicted ? SlotState::conflicted : SlotState::failed;
      }
    }
    // What the gate judged stays judged for the rest of the run.
    if (attempt.gate_tree && attempt.gate_passed && attempt.gate_onto) {
      run->gate_verdicts[*attempt.gate_tree] = GateVerdict{
          *attempt.gate_passed, *attempt.gate_onto, *attempt.gate_passed ? "" : "the gate failed",
          attempt.gate_output.value_or("")};
    }
  }
  // And every tree its queue judged, combined ones included (migration 22).
  for (const auto& gate : store::RunRepository(db).gates(row.id)) {
    run->gate_verdicts[gate.tree] = GateVerdict{gate.passed, gate.onto, gate.reason, gate.output};
  }
  ActiveRun& active = *run;
  runs_[row.id] = std::move(run);
  prepare_gate_slots(active);
}

void RunService::resume() {
  store::Database& db = services_.db;
  for (const store::RunRow& row : store::RunRepository(db).live()) {
    try {
      if (row.status == RunStatus::stopping) {
        store::Transaction transaction(db);
        store::RunRepository(db).set_status(row.id, RunStatus::stopped, std::nullopt,
                                            unix_ms_now());
        transaction.commit();
        continue;
      }
      load(row);
      ActiveRun& run = *runs_.at(row.id);
      // Attempts cut short by the restart: their agents were lost.
      std::map<std::string, std::size_t> node_of;
      for (std::size_t i = 0; i < run.tasks.size(); ++i) node_of[run.tasks[i].id] = i;
      for (const store::AttemptRow& attempt : store::RunRepository(db).attempts(row.id)) {
        auto found = node_of.find(attempt.task_id);
        if (found == node_of.end() || run.tasks[found->second].attempts != attempt.attempt)
          continue;
        if (attempt.status != AttemptStatus::running && attempt.status != AttemptStatus::judging &&
            attempt.status != AttemptStatus::awaiting_approval &&
            attempt.status != AttemptStatus::queued) {
          continue;
        }
        TaskSlot& slot = run.tasks[found->second];
        slot.execution_id = attempt.execution_id.value_or("");
        if (attempt.workspace_id) {
          if (auto workspace = store::WorkspaceRepository(db).find(*attempt.workspace_id)) {
            slot.workspace_id = workspace->id;
            slot.worktree = workspace->path;
            slot.branch = workspace->branch;
            slot.base_commit = workspace->base_commit.value_or("");
          }
        }
        // Its work is committed on its branch: it still waits for a person.
        if (attempt.status == AttemptStatus::awaiting_approval && !slot.workspace_id.empty()) {
          slot.state = SlotState::awaiting_approval;
          continue;
        }
        // Judged and committed, it waited to land (or was landing: a
        // branch that already holds it lands as it is, nothing is merged
        // twice). It goes back to the queue.
        if (attempt.status == AttemptStatus::queued && !slot.workspace_id.empty()) {
          slot.state = SlotState::queued;
          slot.changed_paths_lost = true;
          run.merge_queue.push_back(found->second);
          continue;
        }
        slot.state = SlotState::running;
        attempt_failed(run, found->second, "the daemon restarted while this attempt was under way");
      }
      pump_merges(run);
      to_pump_.push_back(row.id);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: cannot resume run %s: %s\n", row.id.c_str(), e.what());
    }
  }
  if (!to_pump_.empty()) pump_turn_.schedule();
}

// --- dispatching ----------------------------------------------------------

void RunService::pump(ActiveRun& run) {
  if (run.stopping) {
    maybe_finish(run);
    return;
  }
  if (run.halted) {
    // Worktrees made ahead are not used.
    for (std::size_t i = 0; i < run.tasks.size(); ++i) {
      if (run.tasks[i].state == SlotState::prepared) attempt_stopped(run, i);
    }
    maybe_finish(run);
    return;
  }
  std::int64_t agents = 0;
  std::int64_t ahead = 0;
  for (const TaskSlot& slot : run.tasks) {
    const bool preparing = slot.state == SlotState::preparing;
    if ((preparing && slot.launch_when_ready) || slot.state == SlotState::running ||
        slot.state == SlotState::judging) {
      ++agents;
    }
    if ((preparing && !slot.launch_when_ready) || slot.state == SlotState::prepared) ++ahead;
  }
  const std::string run_id = run.row.id;
  // A free slot takes a task whose worktree is ready, then one whose
  // worktree is on its way, then a new one.
  for (std::size_t i = 0; i < run.tasks.size() && agents < run.options.parallel; ++i) {
    TaskSlot& slot = run.tasks[i];
    // A worktree made ahead waits while the run's budget is spent.
    if (slot.state == SlotState::prepared && !run_at_budget(run)) {
      --ahead;
      ++agents;
      slot.picked_at = std::chrono::steady_clock::now();
      slot.worktree_time = std::chrono::microseconds{0};
      launch(run, i);
      if (!find(run_id)) return;
      if (run.halted) {
        // Its agent could not start: no other is launched.
        pump(run);
        return;
      }
    } else if (slot.state == SlotState::preparing && !slot.launch_when_ready) {
      --ahead;
      ++agents;
      slot.launch_when_ready = true;
    }
  }
  while (agents < run.options.parallel) {
    auto node = pick(run);
    if (!node) break;
    dispatch(run, *node, true);
    if (!find(run_id)) return;  // the run ended inside
    ++agents;
  }
  // Worktrees for as many tasks again are made while the agents run, so
  // that a slot that frees launches at once: worktree creation stays off
  // the path from one task to the next.
  while (agents >= run.options.parallel && ahead < run.options.parallel) {
    auto node = pick(run);
    if (!node) break;
    dispatch(run, *node, false);
    if (!find(run_id)) return;
    ++ahead;
  }
  maybe_finish(run);
}

bool RunService::held_by_conflict(const ActiveRun& run, const TaskSlot& slot) const {
  if (!live_->has_conflicts(run.row.id)) return false;
  auto task = store::PlanRepository(services_.db).task(slot.id);
  return task && live_->holds(run.row.id, task->files_likely_affected).has_value();
}

std::optional<std::size_t> RunService::pick(ActiveRun& run) {
  const planning::PlanState& plan = *run.plan;
  if (run_at_budget(run)) return std::nullopt;
  std::vector<bool> done(run.tasks.size());
  for (std::size_t i = 0; i < run.tasks.size(); ++i)
    done[i] = run.tasks[i].state == SlotState::merged;
  std::optional<std::size_t> best;
  std::vector<std::uint32_t> chain;
  for (std::size_t i = 0; i < run.tasks.size(); ++i) {
    const TaskSlot& slot = run.tasks[i];
    if (slot.state != SlotState::waiting || counted_attempts(slot) >= run.options.max_attempts)
      continue;
    const auto prerequisites = plan.dag.prerequisites(static_cast<planning::Node>(i));
    if (!std::all_of(prerequisites.begin(), prerequisites.end(),
                     [&](planning::Node p) { return done[p]; }))
      continue;
    if (held_by_conflict(run, slot)) continue;
    if (!fits_run_budget(run, slot)) continue;
    if (chain.empty()) chain = plan.dag.remaining_chain(done);
    // The longest remaining chain first, then the plan's order.
    if (!best || chain[i] > chain[*best]) best = i;
  }
  return best;
}

void RunService::dispatch(ActiveRun& run, std::size_t node, bool launch_now) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  // Someone else holds it (an agent that claimed it by hand): not ours now.
  if (auto held = store::ClaimRepository(db).claim_of(slot.id)) {
    slot.state = SlotState::held;
    return;
  }
  slot.state = SlotState::preparing;
  slot.launch_when_ready = launch_now;
  slot.attempts += 1;
  slot.picked_at = std::chrono::steady_clock::now();
  const std::int64_t attempt = slot.attempts;
  workspaces::CreateRequest request;
  request.workflow_id = run.row.workflow_id;
  request.base_branch = run.row.integration_branch;
  request.task_ids = {slot.id};
  auto plan = std::make_shared<workspaces::CreatePlan>();
  try {
    *plan = workspaces::plan_create(db, "", request);
  } catch (const MissionError& e) {
    attempt_failed(run, node, std::string("cannot plan the task's worktree: ") + e.what());
    return;
  }
  auto made = std::make_shared<git::WorktreeCreated>();
  auto error = std::make_shared<std::string>();
  const std::string run_id = run.row.id;
  const auto queued_at = std::chrono::steady_clock::now();
  loop::queue_work(
      services_.loop,
      [plan, made, error] {
        try {
          *made = workspaces::run_create(*plan);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id, node, attempt, plan, made, error, queued_at] {
        TaskSlot* slot = slot_at(run_id, node, attempt);
        ActiveRun* run = find(run_id);
        if (!slot || !run) {
          if (error->empty()) workspaces::abandon_create(*plan);
          return;
        }
        slot->worktree_time = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - queued_at);
        if (!error->empty()) {
          attempt_failed(*run, node, "cannot create the task's worktree: " + *error);
          return;
        }
        try {
          store::Transaction transaction(services_.db);
          store::WorkspaceRow workspace =
              workspaces::record_create(services_.db, *plan, *made, unix_ms_now());
          transaction.commit();
          slot->workspace_id = workspace.id;
          slot->worktree = made->path;
          slot->branch = made->branch;
          slot->base_commit = made->base_commit;
        } catch (const std::exception& e) {
          attempt_failed(*run, node, std::string("cannot record the task's worktree: ") + e.what());
          return;
        }
        // A worktree that was still being made when the run stopped or
        // halted is not used; its slot frees, so the run can end.
        if (run->stopping || run->halted) {
          attempt_stopped(*run, node);
          return;
        }
        if (!slot->launch_when_ready) {
          slot->state = SlotState::prepared;
          return;
        }
        launch(*run, node);
      }));
}

std::map<std::string, std::string> RunService::agent_env(const ActiveRun& run,
                                                         const TaskSlot& slot) const {
  std::map<std::string, std::string> env = run.options.env;
  env["MISSION_RUN_ID"] = run.row.id;
  env["MISSION_WORKFLOW_ID"] = run.row.workflow_id;
  env["MISSION_TASK_ID"] = slot.id;
  env["MISSION_TASK_NAME"] = slot.name;
  env["MISSION_TASK_ATTEMPT"] = std::to_string(slot.attempts);
  return env;
}

void RunService::launch(ActiveRun& run, std::size_t node) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  auto task = store::PlanRepository(db).task(slot.id);
  if (!task) {
    attempt_failed(run, node, "the task was deleted");
    return;
  }
  PromptInput input;
  input.workflow_id = run.row.workflow_id;
  input.workflow_name = run.workflow_name;
  input.task = *task;
  input.attempt = slot.attempts;
  input.max_attempts = run.options.max_attempts;
  input.branch = slot.branch;
  input.previous_failure = slot.last_failure;
  input.previous_check_output = slot.last_check_output;
  input.previous_gate_output = slot.last_gate_output;
  input.previous_conflict_patches = slot.last_conflict_patches;
  input.previous_budget = std::exchange(slot.budget_resume, std::nullopt);
  slot.budget_stopped = false;
  input.worktree = slot.worktree;
  if (auto previous = store::RunRepository(db).attempt(run.row.id, slot.id, slot.attempts - 1);
      previous && previous->execution_id) {
    input.previous_refused_writes = execution::refused_writes_of(db, *previous->execution_id);
  }
  const std::string prompt = task_prompt(db, &services_.plans, input);

  // The whole prompt in a file beside the launch files, removed with the run.
  const std::filesystem::path prompt_file = write_prompt_file(
      services_.paths, run.row.id, slot.id + "-" + std::to_string(slot.attempts) + ".md", prompt);

  execution::AgentLaunchRequest request;
  request.spec.kind = ExecutionKind::launched;
  request.spec.state = ExecutionState::launching;
  request.spec.adapter = run.options.adapter;
  request.spec.cwd = slot.worktree;
  request.spec.command =
      run.options.adapter == "generic"
          ? run.options.command
          : prompt_arguments(run.options.adapter, run.options.command, prompt, run.options.sandbox);
  request.detach = true;
  // A command that takes lines on stdin is answered there, as under `mission
  // run --stdin-answers`: its marker question would else read end of file.
  request.stdin_answers = adapters::require_adapter(run.options.adapter).capabilities.stdin_lines;
  request.confined = run.options.sandbox;
  request.network = run.options.network;
  request.allow_write = run.options.allow_write;
  request.hide = run.options.hide;
  request.permission_policy = run.options.permission_policy;
  request.env = agent_env(run, slot);
  request.env["MISSION_TASK_PROMPT"] = prompt.substr(0, kMaxPromptEnvBytes);
  request.env["MISSION_TASK_PROMPT_FILE"] = prompt_file.string();

  const std::int64_t attempt = slot.attempts;
  const std::string run_id = run.row.id;
  bool claimed = true;
  std::string execution_id;
  try {
    execution::AgentLaunchServices launch{db, services_.events, services_.launcher,
                                          services_.paths};
    execution_id =
        execution::launch_agent(launch, request, [&](const execution::CreatedExecution& created) {
          const std::int64_t now = unix_ms_now();
          // The agent holds its task: it may start and complete it itself.
          if (!tasks::TaskLifecycle(db, nullptr).claim(slot.id, created.row.id, now)) {
            claimed = false;
            throw MissionError(ErrorCode::already_claimed,
                               "task " + slot.id + " was claimed meanwhile");
          }
          store::AttemptRow row;
          row.run_id = run_id;
          row.task_id = slot.id;
          row.attempt = attempt;
          row.status = AttemptStatus::running;
          row.execution_id = created.row.id;
          row.workspace_id = slot.workspace_id;
          row.started_at = now;
          store::RunRepository(db).insert_attempt(row);
          slot.execution_id = created.row.id;
        });
  } catch (const MissionError& e) {
    TaskSlot* still = slot_at(run_id, node, attempt);
    ActiveRun* live = find(run_id);
    if (!still || !live) return;
    if (!claimed) {
      // Not an attempt: someone else took the task. It waits for them.
      still->attempts -= 1;
      still->state = SlotState::held;
      retire_worktree(*still, WorkspaceStatus::abandoned);
      return;
    }
    // A command that cannot start will not start on the next attempt, nor
    // for the next task: the run stops here and says what to fix.
    const std::vector<std::string>& command = live->options.command;
    const bool relative = !command.empty() && command.front().find('/') != std::string::npos &&
                          command.front().front() != '/';
    const std::string reason =
        std::string("cannot launch the agent: ") + e.what() +
        (relative ? "; a relative path is looked up in each task's worktree: give the agent's "
                    "absolute path, or a name in PATH"
                  : std::string()) +
        "; the run stops here: fix the agent, then run the workflow again";
    attempt_failed(*live, node, reason, std::nullopt, AttemptStatus::failed, false);
    if (ActiveRun* halting = find(run_id)) {
      halting->halted = reason;
      schedule_pump(run_id);
    }
    return;
  }
  by_execution_[execution_id] = {run_id, node};
  slot.state = SlotState::running;
  live_->task_started(run.row.id, run.row.workflow_id, run.row.repository,
                      run.row.integration_branch,
                      {slot.id, slot.name, task->description, execution_id, slot.worktree,
                       slot.branch, slot.base_commit});
  if (run.options.task_timeout_ms) {
    slot.timeout =
        std::make_unique<loop::Timer>(services_.loop, [this, execution_id, run_id, node, attempt] {
          if (TaskSlot* timed = slot_at(run_id, node, attempt)) {
            timed->timed_out = true;
            services_.launcher.stop(execution_id, false);
          }
        });
    slot.timeout->start(
        static_cast<int>(std::min<std::int64_t>(*run.options.task_timeout_ms, INT32_MAX)));
  }
  const auto dispatch = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - slot.picked_at) -
                        slot.worktree_time;
  events::EventBatch events(services_.events);
  update_attempt(
      run, node, [&](store::AttemptRow& a) { a.dispatch_us = dispatch.count(); }, events);
  events.publish_to(services_.events);
}

// --- judging --------------------------------------------------------------

void RunService::on_execution_ended(const std::string& execution_id) {
  auto found = by_execution_.find(execution_id);
  if (found == by_execution_.end()) return;
  auto [run_id, node] = found->second;
  by_execution_.erase(found);
  ActiveRun* run = find(run_id);
  if (!run) return;
  TaskSlot& slot = run->tasks[node];
  if (slot.execution_id != execution_id || slot.state != SlotState::running) return;
  live_->task_ended(run_id, slot.id);
  slot.timeout.reset();
  record_reported_tokens(services_.db, run_id, slot.id, slot.attempts);
  if (run->stopping) {
    attempt_stopped(*run, node);
    return;
  }
  if (slot.budget_stopped && ended_at_budget(*run, node)) return;
  judge(*run, node);
}

void RunService::judge(ActiveRun& run, std::size_t node) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  slot.state = SlotState::judging;
  auto row = store::ExecutionRepository(db).find(slot.execution_id);
  if (!row || row->state != ExecutionState::completed) {
    attempt_failed(run, node,
                   row ? describe_end(*row, slot.timed_out, run.options.task_timeout_ms.value_or(0))
                       : "the agent's execution is gone");
    return;
  }
  auto task = store::PlanRepository(db).task(slot.id);
  if (task && task->status == TaskStatus::failed) {
    attempt_failed(
        run, node,
        "the agent reported the task failed: " + task->error.value_or("no reason given"));
    return;
  }
  {
    events::EventBatch events(services_.events);
    store::Transaction transaction(db);
    update_attempt(
        run, node, [](store::AttemptRow& a) { a.status = AttemptStatus::judging; }, events);
    transaction.commit();
    events.publish_to(services_.events);
  }
  judge_scope(run, node, task ? task->files_likely_affected : std::string("[]"));
}

void RunService::judge_scope(ActiveRun& run, std::size_t node,
                             const std::string& files_likely_affected) {
  TaskSlot& slot = run.tasks[node];
  const std::string run_id = run.row.id;
  const std::int64_t attempt = slot.attempts;
  auto changed = std::make_shared<std::vector<std::string>>();
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [worktree = slot.worktree, base = slot.base_commit, changed, error] {
        try {
          *changed = git::changed_paths(worktree, base);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id, node, attempt, changed, error, files_likely_affected] {
        TaskSlot* slot = slot_at(run_id, node, attempt);
        ActiveRun* run = find(run_id);
        if (!slot || !run || slot->state != SlotState::judging) return;
        if (!error->empty()) {
          attempt_failed(*run, node, "cannot read what the agent changed: " + *error);
          return;
        }
        slot->changed_paths = *changed;
        slot->changed_paths_lost = false;
        const ScopeVerdict verdict = judge_change_set(*changed, files_likely_affected);
        if (verdict.failure) {
          attempt_failed(*run, node, *verdict.failure);
          return;
        }
        if (verdict.warning) {
          events::EventBatch events(services_.events);
          store::Transaction transaction(services_.db);
          update_attempt(
              *run, node, [&](store::AttemptRow& a) { a.scope_warning = verdict.warning; }, events);
          transaction.commit();
          events.publish_to(services_.events);
        }
        judge_check(*run, node);
      }));
}

void RunService::judge_check(ActiveRun& run, std::size_t node) {
  TaskSlot& slot = run.tasks[node];
  if (!run.options.check) {
    pass(run, node);
    return;
  }
  const std::string run_id = run.row.id;
  const std::int64_t attempt = slot.attempts;
  // The check runs with the agents' environment, PATH included.
  const std::map<std::string, std::string> agent_variables = agent_env(run, slot);
  std::vector<std::string> env;
  for (const auto& [name, value] : agent_variables) env.push_back(name + "=" + value);
  slot.check = std::make_unique<TaskCheck>(
      services_.loop, *run.options.check, slot.worktree, std::move(env),
      CheckConfinement{
          run.options.sandbox, services_.paths.sandbox_temp_dir(),
          "check-" + run_id + "-" + slot.id + "-" + std::to_string(attempt),
          run.options.allow_write,
          execution::hidden_paths(services_.paths, "", agent_variables, run.options.hide)},
      [this, run_id, node, attempt](CheckResult result) {
        TaskSlot* checked = slot_at(run_id, node, attempt);
        ActiveRun* live = find(run_id);
        if (!checked || !live || checked->state != SlotState::judging) return;
        // Destroyed on the next turn: this call runs inside it.
        retired_checks_.push_back(std::move(checked->check));
        pump_turn_.schedule();
        if (!result.passed) {
          attempt_failed(*live, node, "--check failed: " + result.reason, result.output);
          return;
        }
        pass(*live, node);
      });
}

void RunService::pass(ActiveRun& run, std::size_t node) {
  TaskSlot& slot = run.tasks[node];
  const std::string run_id = run.row.id;
  const std::int64_t attempt = slot.attempts;
  const std::string worktree = slot.worktree;
  const std::string message = "mission: " + slot.name + "\n\nTask " + slot.id + ", attempt " +
                              std::to_string(attempt) + " of workflow run " + run_id + ".\n";
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [worktree, message, error] {
        try {
          git::commit_work_tree(worktree, message);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id, node, attempt, error] {
        TaskSlot* slot = slot_at(run_id, node, attempt);
        ActiveRun* run = find(run_id);
        if (!slot || !run || slot->state != SlotState::judging) return;
        if (run->stopping) {
          attempt_stopped(*run, node);
          return;
        }
        if (!error->empty()) {
          attempt_failed(*run, node, "cannot commit the agent's edits: " + *error);
          return;
        }
        // With --approve a person looks first (mission approve / reject).
        const bool ask = run->options.approve;
        slot->state = ask ? SlotState::awaiting_approval : SlotState::queued;
        {
          events::EventBatch events(services_.events);
          store::Transaction transaction(services_.db);
          update_attempt(
              *run, node,
              [ask](store::AttemptRow& a) {
                a.status = ask ? AttemptStatus::awaiting_approval : AttemptStatus::queued;
              },
              events);
          transaction.commit();
          events.publish_to(services_.events);
        }
        if (ask) return;
        run->merge_queue.push_back(node);
        pump_merges(*run);
      }));
}

// --- merging --------------------------------------------------------------

void RunService::pump_merges(ActiveRun& run) {
  if (run.merging || run.merge_queue.empty()) return;
  if (run.options.gate) {
    gate_queue(run);
    return;
  }
  const std::size_t node = run.merge_queue.front();
  run.merge_queue.pop_front();
  TaskSlot& slot = run.tasks[node];
  slot.state = SlotState::merging;
  run.merging = true;
  const std::string run_id = run.row.id;
  const std::int64_t attempt = slot.attempts;
  const std::string repository = run.row.repository;
  const std::string into = run.row.integration_branch;
  const std::string from = slot.branch;
  const std::string message = "mission: merge " + slot.name + " (" + slot.id + ")\n";
  auto result = std::make_shared<git::BranchMerge>();
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [repository, into, from, message, result, error] {
        try {
          *result = git::merge_branch(repository, into, from, message);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id, node, attempt, result, error] {
        ActiveRun* run = find(run_id);
        if (!run) return;
        run->merging = false;
        if (!slot_at(run_id, node, attempt)) {
          pump(*run);
          return;
        }
        if (!error->empty() || !result->merged) {
          merge_blocked(*run, node, *error, result->conflicts);
          return;
        }
        landed(*run, node, result->commit);
      }));
}

void RunService::gate_queue(ActiveRun& run) {
  auto batch = std::make_unique<GateBatch>();
  batch->serial = ++run.batches;
  std::vector<std::string> branches;
  std::vector<std::string> messages;
  while (!run.merge_queue.empty()) {
    const std::size_t node = run.merge_queue.front();
    run.merge_queue.pop_front();
    TaskSlot& slot = run.tasks[node];
    slot.state = SlotState::merging;
    batch->nodes.push_back(node);
    branches.push_back(slot.branch);
    messages.push_back("mission: merge " + slot.name + " (" + slot.id + ")\n");
  }
  const std::uint64_t serial = batch->serial;
  run.batch = std::move(batch);
  run.merging = true;
  auto chain = std::make_shared<std::vector<git::PlannedMerge>>();
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [repository = run.row.repository, into = run.row.integration_branch, branches, messages,
       chain, error] {
        try {
          // Each merge is made on the one before: the k-th commit holds the
          // first k tasks, and each task keeps its own merge commit.
          std::string onto = into;
          for (std::size_t i = 0; i < branches.size(); ++i) {
            chain->push_back(git::plan_merge(repository, onto, branches[i], messages[i]));
            if (!chain->back().conflicts.empty()) return;
            onto = chain->back().commit;
          }
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id = run.row.id, serial, chain, error] {
        batch_planned(run_id, serial, *chain, *error);
      }));
}

void RunService::batch_planned(const std::string& run_id, std::uint64_t serial,
                               const std::vector<git::PlannedMerge>& chain,
                               const std::string& error) {
  ActiveRun* run = find(run_id);
  if (!run || !run->batch || run->batch->serial != serial) return;
  GateBatch& batch = *run->batch;
  const std::vector<std::size_t> nodes = batch.nodes;
  // Tasks the tip already holds (a daemon stopped after it moved the
  // branch, before it recorded the merge): nothing new to gate.
  std::size_t first = 0;
  while (first < chain.size() && chain[first].conflicts.empty() &&
         chain[first].commit == chain[first].onto) {
    ++first;
  }
  std::size_t cut = first;
  while (cut < chain.size() && chain[cut].conflicts.empty()) ++cut;
  batch.nodes.assign(nodes.begin() + static_cast<std::ptrdiff_t>(first),
                     nodes.begin() + static_cast<std::ptrdiff_t>(cut));
  batch.merges.assign(chain.begin() + static_cast<std::ptrdiff_t>(first),
                      chain.begin() + static_cast<std::ptrdiff_t>(cut));
  batch.onto = chain.empty() ? std::string() : chain[first < chain.size() ? first : 0].onto;
  batch.state = QueueState{batch.nodes.size(), 0, std::nullopt};
  // What conflicts (or could not be merged) on the tip itself goes back
  // to its agent; on the tasks before it, it waits for the next batch.
  const bool blocked = cut < nodes.size() && cut == first;
  std::vector<std::size_t> rest(
      nodes.begin() + static_cast<std::ptrdiff_t>(cut + (blocked ? 1 : 0)), nodes.end());
  requeue(*run, rest);
  for (std::size_t i = 0; i < first; ++i) landed(*run, nodes[i], chain[i].commit);
  if (!batch.nodes.empty()) {
    gate_round(*run);
    return;
  }
  run->batch.reset();
  run->merging = false;
  if (blocked) {
    merge_blocked(*run, nodes[cut], error,
                  cut < chain.size() ? chain[cut].conflicts : std::vector<std::string>{});
    return;
  }
  pump_merges(*run);
  pump(*run);
}

void RunService::requeue(ActiveRun& run, const std::vector<std::size_t>& nodes) {
  for (auto node = nodes.rbegin(); node != nodes.rend(); ++node) {
    run.tasks[*node].state = SlotState::queued;
    run.merge_queue.push_front(*node);
  }
}

void RunService::gate_round(ActiveRun& run) {
  GateBatch& batch = *run.batch;
  if (run.stopping) {
    end_batch(run, false);
    return;
  }
  if (culprit(batch.state)) {
    send_back_culprit(run);
    return;
  }
  std::vector<std::size_t> lengths =
      prefixes_to_gate(batch.state, static_cast<std::size_t>(run.options.gate_parallel));
  if (lengths.empty()) {
    end_batch(run, true);
    return;
  }
  batch.round.clear();
  // Prefixes with the same tree (a task that added nothing) are one gate:
  // the longest of them stands for all.
  std::set<std::string> trees;
  for (auto length = lengths.rbegin(); length != lengths.rend(); ++length) {
    const std::string& tree = batch.merges[*length - 1].tree;
    if (!trees.insert(tree).second) continue;
    auto known = run.gate_verdicts.find(tree);
    if (known != run.gate_verdicts.end()) {
      batch.round[*length] = known->second;
      batch.found.insert(*length);
      continue;
    }
    start_gate(run, *length);
  }
  if (batch.running.empty()) round_done(run);
}

void RunService::prepare_gate_slots(ActiveRun& run) {
  if (!run.options.gate || !run.gate_slots.empty()) return;
  for (std::int64_t i = 0; i < std::max<std::int64_t>(run.options.gate_parallel, 1); ++i) {
    run.gate_slots.push_back(
        GateSlot{gate_tree_for(run.row.repository, run.row.id, static_cast<std::size_t>(i))});
  }
  // The others are made when a round first gates that many at once. One
  // left by a killed daemon is kept, and checked before its first use.
  GateSlot& first = run.gate_slots.front();
  first.working = true;
  auto made = std::make_shared<bool>(false);
  loop::queue_work(
      services_.loop,
      [tree = first.tree, tip = run.row.integration_branch, made] {
        try {
          *made = ensure_gate_tree(tree, tip);
        } catch (const std::exception&) {
          // The first gate makes it again, and says why if it cannot.
        }
      },
      guarded([this, run_id = run.row.id, tree = first.tree, made] {
        if (ActiveRun* run = find(run_id)) run->gate_slots.front().known_clean = *made;
        gate_slot_done(run_id, tree, 0);
      }));
}

void RunService::tidy_gate_slot(ActiveRun& run, std::size_t slot, const std::string& commit) {
  GateSlot& kept = run.gate_slots[slot];
  kept.working = true;
  auto tidied = std::make_shared<bool>(false);
  loop::queue_work(
      services_.loop,
      [path = kept.tree.path, commit, tidied] {
        try {
          // Moved to the commit it holds: only what was written is undone.
          git::move_worktree(path, commit, false);
          *tidied = true;
        } catch (const std::exception&) {
          // The next gate checks it again, or makes it afresh.
        }
      },
      guarded([this, run_id = run.row.id, tree = kept.tree, slot, tidied] {
        if (ActiveRun* run = find(run_id)) run->gate_slots[slot].known_clean = *tidied;
        gate_slot_done(run_id, tree, slot);
      }));
}

void RunService::gate_slot_done(const std::string& run_id, const GateTree& tree, std::size_t slot) {
  ActiveRun* run = find(run_id);
  if (run == nullptr) {
    // The run ended while git worked on it: nothing will use it again.
    loop::queue_work(
        services_.loop, [tree] { remove_gate_tree(tree); }, [] {});
    return;
  }
  run->gate_slots[slot].working = false;
  if (!run->batch) return;
  for (PrefixGate& gate : run->batch->running) {
    if (gate.slot == slot && gate.waiting) {
      begin_gate(*run, gate);
      return;
    }
  }
}

void RunService::start_gate(ActiveRun& run, std::size_t length) {
  GateBatch& batch = *run.batch;
  PrefixGate& gate = batch.running.emplace_back();
  gate.length = length;
  // A round gates at most --gate-parallel prefixes, so one worktree is
  // free; should none be, one more is made.
  auto free = std::find_if(run.gate_slots.begin(), run.gate_slots.end(),
                           [](const GateSlot& slot) { return !slot.held; });
  if (free == run.gate_slots.end()) {
    run.gate_slots.push_back(
        GateSlot{gate_tree_for(run.row.repository, run.row.id, run.gate_slots.size())});
    free = run.gate_slots.end() - 1;
  }
  gate.slot = static_cast<std::size_t>(free - run.gate_slots.begin());
  free->held = true;
  if (free->working) {
    gate.waiting = true;
    return;
  }
  begin_gate(run, gate);
}

void RunService::begin_gate(ActiveRun& run, PrefixGate& gate) {
  GateBatch& batch = *run.batch;
  const std::size_t length = gate.length;
  const git::PlannedMerge& merge = batch.merges[length - 1];
  GateSlot& slot = run.gate_slots[gate.slot];
  gate.waiting = false;
  slot.working = true;
  const bool known_clean = slot.known_clean;
  // From now on its command may write there.
  slot.known_clean = false;
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [tree = slot.tree, commit = merge.commit, known_clean, error] {
        try {
          move_gate_tree(tree, commit, known_clean);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id = run.row.id, serial = batch.serial, length, slot = gate.slot,
               tree = slot.tree, error] {
        ActiveRun* run = find(run_id);
        PrefixGate* gate = running_gate(run, serial, length);
        if (gate == nullptr || gate->slot != slot) {
          gate_slot_done(run_id, tree, slot);
          return;
        }
        run->gate_slots[slot].working = false;
        GateBatch& batch = *run->batch;
        if (!error->empty()) {
          prefix_judged(run_id, serial, length,
                        CheckResult{false, "cannot make the --gate's worktree: " + *error, ""});
          return;
        }
        const git::PlannedMerge& merge = batch.merges[length - 1];
        // The gate runs as the task's check does: the agents' environment
        // (the prefix's last task's names), confined to its worktree
        // unless the run said otherwise.
        std::vector<std::string> env;
        const TaskSlot& last = run->tasks[batch.nodes[length - 1]];
        const std::map<std::string, std::string> agent_variables = agent_env(*run, last);
        for (const auto& [name, value] : agent_variables) env.push_back(name + "=" + value);
        env.push_back("MISSION_GATE_TREE=" + merge.tree);
        env.push_back("MISSION_GATE_ONTO=" + batch.tip(batch.state.landed));
        gate->check = std::make_unique<TaskCheck>(
            services_.loop, *run->options.gate, tree.path, std::move(env),
            CheckConfinement{
                run->options.sandbox, services_.paths.sandbox_temp_dir(), tree.name,
                run->options.allow_write,
                execution::hidden_paths(services_.paths, "", agent_variables, run->options.hide)},
            [this, run_id, serial, length](CheckResult result) {
              prefix_judged(run_id, serial, length, result);
            });
      }));
}

RunService::PrefixGate* RunService::running_gate(ActiveRun* run, std::uint64_t serial,
                                                 std::size_t length) {
  if (!run || !run->batch || run->batch->serial != serial) return nullptr;
  auto& running = run->batch->running;
  auto gate = std::find_if(running.begin(), running.end(),
                           [length](const PrefixGate& g) { return g.length == length; });
  return gate == running.end() ? nullptr : &*gate;
}

void RunService::prefix_judged(const std::string& run_id, std::uint64_t serial, std::size_t length,
                               const CheckResult& result) {
  ActiveRun* run = find(run_id);
  PrefixGate* gate = running_gate(run, serial, length);
  if (gate == nullptr) return;
  GateBatch& batch = *run->batch;
  // A gate that could not start judged nothing: its failure fails the
  // prefix now, and is not kept as the tree's verdict.
  const bool ran = gate->check != nullptr;
  // Destroyed on the next turn: this call may run inside it.
  if (gate->check) retired_checks_.push_back(std::move(gate->check));
  pump_turn_.schedule();
  // Kept for the next gate, which moves it on.
  run->gate_slots[gate->slot].held = false;
  if (ran) tidy_gate_slot(*run, gate->slot, batch.merges[length - 1].commit);
  batch.running.erase(batch.running.begin() + (gate - batch.running.data()));
  const std::string& tree = batch.merges[length - 1].tree;
  GateVerdict verdict{result.passed, batch.tip(batch.state.landed), result.reason, result.output};
  if (ran) {
    run->gate_verdicts[tree] = verdict;
    store::RunRepository::GateRow row{tree,           verdict.onto,   verdict.passed,
                                      verdict.reason, verdict.output, unix_ms_now()};
    store::Transaction transaction(services_.db);
    store::RunRepository(services_.db).add_gate(run_id, row);
    transaction.commit();
  }
  batch.round[length] = std::move(verdict);
  if (batch.running.empty()) round_done(*run);
}

void RunService::round_done(ActiveRun& run) {
  GateBatch& batch = *run.batch;
  std::map<std::size_t, bool> passed;
  for (const auto& [length, verdict] : batch.round) passed[length] = verdict.passed;
  const QueueState next = after_round(batch.state, passed);
  if (next.failing && next.failing != batch.state.failing)
    batch.failing_verdict = batch.round.at(*next.failing);
  if (next.landed > batch.state.landed) {
    land_prefix(run, next);
    return;
  }
  batch.state = next;
  gate_round(run);
}

void RunService::land_prefix(ActiveRun& run, const QueueState& next) {
  GateBatch& batch = *run.batch;
  const std::string from = batch.tip(batch.state.landed);
  const std::string to = batch.tip(next.landed);
  auto moved = std::make_shared<bool>(false);
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [repository = run.row.repository, into = run.row.integration_branch, from, to, moved, error] {
        try {
          *moved = git::advance_branch(repository, into, to, from);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      guarded([this, run_id = run.row.id, serial = batch.serial, next, from, moved, error] {
        ActiveRun* run = find(run_id);
        if (!run || !run->batch || run->batch->serial != serial) return;
        GateBatch& batch = *run->batch;
        if (!error->empty()) {
          const std::size_t node = batch.nodes[batch.state.landed];
          batch.state.landed += 1;  // this one is blocked, the rest wait
          end_batch(*run, true);
          merge_blocked(*run, node, *error, {});
          return;
        }
        if (!*moved) {
          // The tip moved while the gate ran: what passed is not what
          // would land now. Merged onto the new tip and gated again.
          end_batch(*run, true);
          return;
        }
        const std::string& tree = batch.merges[next.landed - 1].tree;
        const GateVerdict verdict = batch.round.at(next.landed);
        const std::size_t begin = batch.state.landed;
        batch.state = next;
        for (std::size_t i = begin; i < next.landed; ++i) {
          record_gate(*run, batch.nodes[i], tree, from, verdict);
          landed(*run, batch.nodes[i], batch.merges[i].commit);
        }
        gate_round(*run);
      }));
}

void RunService::send_back_culprit(ActiveRun& run) {
  GateBatch& batch = *run.batch;
  const std::size_t index = batch.state.landed;
  const std::size_t node = batch.nodes[index];
  const std::string tree = batch.merges[index].tree;
  const bool judged_before = batch.found.count(index + 1) > 0;
  GateVerdict verdict = batch.failing_verdict;
  verdict.onto = batch.tip(index);
  record_gate(run, node, tree, verdict.onto, verdict);
  // The culprit is done with; the tasks after it are merged again without it.
  batch.state.landed = index + 1;
  end_batch(run, true);
  attempt_failed(run, node,
                 gate_failure_reason(verdict, run.row.integration_branch, tree, judged_before));
  run.tasks[node].last_gate_output = verdict.output;
  pump_merges(run);
}

void RunService::end_batch(ActiveRun& run, bool requeue_rest) {
  std::unique_ptr<GateBatch> batch = std::move(run.batch);
  run.merging = false;
  for (PrefixGate& gate : batch->running) {
    gate.check.reset();
    run.gate_slots[gate.slot].held = false;
  }
  std::vector<std::size_t> rest(
      batch->nodes.begin() + static_cast<std::ptrdiff_t>(batch->state.landed), batch->nodes.end());
  if (requeue_rest) {
    requeue(run, rest);
  } else {
    for (std::size_t node : rest) attempt_stopped(run, node);
  }
  pump_merges(run);
  // On the next turn: the run may end there, and callers still hold it.
  schedule_pump(run.row.id);
}

void RunService::record_gate(ActiveRun& run, std::size_t node, const std::string& tree,
                             const std::string& onto, const GateVerdict& verdict) {
  events::EventBatch events(services_.events);
  store::Transaction transaction(services_.db);
  update_attempt(
      run, node,
      [&](store::AttemptRow& a) {
        a.gate_tree = tree;
        a.gate_onto = onto;
        a.gate_passed = verdict.passed;
        a.gate_output = verdict.output;
        a.gate_at = unix_ms_now();
      },
      events);
  transaction.commit();
  events.publish_to(services_.events);
}

void RunService::recover_changed_paths(ActiveRun& run, std::size_t node,
                                       const std::vector<std::string>& conflicts) {
  struct Landed {
    std::size_t node = 0;
    std::string base;
    std::string merge;
    std::vector<std::string> paths;
  };
  auto landed = std::make_shared<std::vector<Landed>>();
  for (std::size_t i = 0; i < run.tasks.size(); ++i) {
    const TaskSlot& other = run.tasks[i];
    if (other.state == SlotState::merged && other.changed_paths_lost)
      landed->push_back({i, other.base_commit, other.merge_commit, {}});
  }
  loop::queue_work(
      services_.loop,
      [repository = run.row.repository, landed] {
        for (Landed& each : *landed) {
          if (each.merge.empty()) continue;
          try {
            // A merge commit's change over its first parent; a fast-forward
            // against the base its attempt began on.
            std::set<std::string> paths;
            for (const auto& file : git::task_diff(repository, each.base, each.merge, 0).files) {
              paths.insert(file.path);
              if (file.old_path) paths.insert(*file.old_path);
            }
            each.paths.assign(paths.begin(), paths.end());
          } catch (const std::exception&) {
            // Unreadable (the commit is gone): the prompt names no task for it.
          }
        }
      },
      guarded(
          [this, run_id = run.row.id, node, attempt = run.tasks[node].attempts, conflicts, landed] {
            ActiveRun* run = find(run_id);
            if (!run) return;
            for (Landed& each : *landed) {
              TaskSlot& other = run->tasks[each.node];
              if (!other.changed_paths_lost) continue;
              other.changed_paths = std::move(each.paths);
              other.changed_paths_lost = false;
            }
            if (slot_at(run_id, node, attempt) == nullptr) {
              pump(*run);
              return;
            }
            merge_blocked(*run, node, "", conflicts);
          }));
}

void RunService::merge_blocked(ActiveRun& run, std::size_t node, const std::string& error,
                               const std::vector<std::string>& conflicts) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  const std::string run_id = run.row.id;
  const std::string& into = run.row.integration_branch;
  std::string reason;
  if (!error.empty()) {
    reason = "cannot merge into " + into + ": " + error;
  } else {
    reason = "merging into " + into + " conflicts in";
    for (std::size_t i = 0; i < conflicts.size() && i < kConflictPathsNamed; ++i) {
      reason += (i == 0 ? " " : ", ") + conflicts[i];
    }
    if (conflicts.size() > kConflictPathsNamed)
      reason += " and " + std::to_string(conflicts.size() - kConflictPathsNamed) + " more";
  }
  // A conflict goes back to the agent while attempts remain: a new attempt
  // starts from the new tip, told which files and which landed tasks.
  if (error.empty() && slot.attempts < run.options.max_attempts) {
    for (const TaskSlot& other : run.tasks) {
      if (other.state == SlotState::merged && other.changed_paths_lost) {
        recover_changed_paths(run, node, conflicts);
        return;
      }
    }
    send_back_conflict(run, node, reason, conflicts);
    return;
  }
  slot.state = SlotState::conflicted;
  {
    events::EventBatch events(services_.events);
    store::Transaction transaction(db);
    update_attempt(
        run, node,
        [&](store::AttemptRow& a) {
          a.status = AttemptStatus::conflicted;
          a.reason = reason;
          a.ended_at = unix_ms_now();
        },
        events);
    set_task_status(slot.id, TaskStatus::failed, "blocked: " + reason);
    // A person has to untangle it: say so where people read.
    coordination::notify_people(
        db, events,
        {"Task '" + slot.name + "' of run " + run_id + " cannot merge",
         reason + ". Its work is on branch " + slot.branch + "; merge it into " + into +
             " by hand, or change the plan and run the workflow again.",
         run.row.workflow_id, slot.id});
    transaction.commit();
    events.publish_to(services_.events);
  }
  retire_worktree(slot, WorkspaceStatus::abandoned);
  pump_merges(run);
  pump(run);
}

void RunService::send_back_conflict(ActiveRun& run, std::size_t node, const std::string& reason,
                                    const std::vector<std::string>& conflicts) {
  // Both sides' intent: each landed task that changed a conflicting file,
  // its goal, and its patch of those files (read from git off the loop).
  struct Side {
    std::string name, id, goal, base, merge, patch;
  };
  auto sides = std::make_shared<std::vector<Side>>();
  const TaskSlot& slot = run.tasks[node];
  for (const TaskSlot& other : run.tasks) {
    if (other.state != SlotState::merged || &other == &slot) continue;
    const bool touched = std::any_of(conflicts.begin(), conflicts.end(), [&](const auto& path) {
      return std::binary_search(other.changed_paths.begin(), other.changed_paths.end(), path);
    });
    if (!touched) continue;
    auto task = store::PlanRepository(services_.db).task(other.id);
    sides->push_back({other.name, other.id, task ? task->description : "", other.base_commit,
                      other.merge_commit, ""});
  }
  std::vector<std::string> sorted = conflicts;
  std::sort(sorted.begin(), sorted.end());
  loop::queue_work(
      services_.loop,
      [repository = run.row.repository, sides, sorted] {
        std::size_t left = kMaxConflictPatchesBytes;
        for (Side& side : *sides) {
          if (side.merge.empty() || left == 0) continue;
          try {
            const std::string whole =
                git::task_diff(repository, side.base, side.merge, limits::kMaxAttemptPatchBytes)
                    .patch;
            side.patch = patch_of_paths(whole, sorted, std::min(left, kMaxConflictPatchBytes));
            left -= std::min(left, side.patch.size());
          } catch (const std::exception&) {
            // Unreadable (the commit is gone): its goal is still told.
          }
        }
      },
      guarded([this, run_id = run.row.id, node, attempt = slot.attempts, reason, sides] {
        ActiveRun* run = find(run_id);
        if (!run) return;
        if (slot_at(run_id, node, attempt) == nullptr) {
          pump(*run);
          return;
        }
        TaskSlot& slot = run->tasks[node];
        const std::string& into = run->row.integration_branch;
        std::string landed_by;
        std::string patches;
        for (const Side& side : *sides) {
          landed_by += "\n- task '" + side.name + "' (" + side.id + ")";
          if (!side.goal.empty()) landed_by += ", whose goal is: " + side.goal;
          if (side.patch.empty()) continue;
          patches += "\nWhat task '" + side.name + "' (" + side.id +
                     ") changed in those files, as " + into + " holds it now:\n\n```diff\n" +
                     side.patch + "```\n";
        }
        std::string sent_back = reason + ". Since this attempt began, " + into + " changed them";
        sent_back += landed_by.empty() ? "." : ", in:" + landed_by + "\n";
        sent_back += "\nThis attempt starts from " + into +
                     " as it is now: keep what those changes meant and make yours on top. The "
                     "previous attempt's work is on branch " +
                     slot.branch + ".";
        // Before attempt_failed: the next attempt may be prepared within it.
        if (!patches.empty()) slot.last_conflict_patches = patches;
        attempt_failed(*run, node, sent_back, std::nullopt, AttemptStatus::conflicted);
        pump_merges(*run);
      }));
}

void RunService::landed(ActiveRun& run, std::size_t node, const std::string& commit) {
  TaskSlot& slot = run.tasks[node];
  const std::string& into = run.row.integration_branch;
  slot.state = SlotState::merged;
  slot.merge_commit = commit;
  {
    events::EventBatch events(services_.events);
    store::Transaction transaction(services_.db);
    update_attempt(
        run, node,
        [&](store::AttemptRow& a) {
          a.status = AttemptStatus::merged;
          a.merge_commit = commit;
          a.ended_at = unix_ms_now();
        },
        events);
    set_task_status(slot.id, TaskStatus::success,
                    "merged into " + into + " at " + commit.substr(0, 12));
    transaction.commit();
    events.publish_to(services_.events);
  }
  retire_worktree(slot, WorkspaceStatus::merged);
  live_->tip_moved(run.row.id);
  pump_merges(run);
  pump(run);
}

// --- outcomes -------------------------------------------------------------

void RunService::update_attempt(ActiveRun& run, std::size_t node,
                                const std::function<void(store::AttemptRow&)>& change,
                                events::EventBatch& events) {
  TaskSlot& slot = run.tasks[node];
  store::RunRepository repository(services_.db);
  std::optional<store::AttemptRow> row = repository.attempt(run.row.id, slot.id, slot.attempts);
  if (!row) return;
  change(*row);
  repository.update_attempt(*row);
  if (events.wanted()) {
    nlohmann::json attempt = {{"taskId", row->task_id},
                              {"taskName", slot.name},
                              {"attempt", row->attempt},
                              {"maxAttempts", run.options.max_attempts},
                              {"status", row->status}};
    if (row->execution_id) attempt["agentExecutionId"] = *row->execution_id;
    if (row->reason) attempt["reason"] = *row->reason;
    if (row->merge_commit) attempt["mergeCommit"] = *row->merge_commit;
    attempt["durationMs"] = row->ended_at.value_or(unix_ms_now()) - row->started_at;
    events.add({{"type", kRunAttempt},
                {"runId", run.row.id},
                {"workflowId", run.row.workflow_id},
                {"attempt", attempt}});
  }
}

void RunService::set_task_status(const std::string& task_id, TaskStatus status,
                                 const std::optional<std::string>& text) {
  auto task = store::PlanRepository(services_.db).task(task_id);
  if (!task) return;
  // The run's own events say what happened to the task; the aggregate
  // announces nothing more.
  tasks::TaskLifecycle lifecycle(services_.db, nullptr);
  const std::int64_t now = unix_ms_now();
  if (status == TaskStatus::success) {
    lifecycle.land(*task, text.value_or(""), now);
  } else if (status == TaskStatus::failed) {
    lifecycle.fail(*task, text.value_or(""), now);
  } else {
    lifecycle.reset(*task);
  }
}

void RunService::attempt_failed(ActiveRun& run, std::size_t node, const std::string& reason,
                                const std::optional<std::string>& check_output,
                                AttemptStatus ended_as, bool may_retry) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  slot.timeout.reset();
  slot.check.reset();
  const bool retry = may_retry && counted_attempts(slot) < run.options.max_attempts;
  slot.last_failure = reason;
  slot.last_check_output = check_output;
  slot.last_gate_output.reset();
  // Set by send_back_conflict for the attempt it fails; any other failure
  // has no other side to show.
  if (ended_as != AttemptStatus::conflicted) slot.last_conflict_patches.reset();
  slot.state = retry ? SlotState::waiting : SlotState::failed;
  const std::int64_t now = unix_ms_now();
  events::EventBatch events(services_.events);
  store::Transaction transaction(db);
  store::RunRepository repository(db);
  if (!repository.attempt(run.row.id, slot.id, slot.attempts)) {
    // It failed before its agent was launched.
    store::AttemptRow row;
    row.run_id = run.row.id;
    row.task_id = slot.id;
    row.attempt = slot.attempts;
    row.status = ended_as;
    if (!slot.workspace_id.empty()) row.workspace_id = slot.workspace_id;
    row.started_at = now;
    repository.insert_attempt(row);
  }
  update_attempt(
      run, node,
      [&](store::AttemptRow& a) {
        a.status = ended_as;
        a.reason = reason;
        a.check_output = check_output;
        a.ended_at = now;
      },
      events);
  // What failed joins the task's journal, where the next attempt's context
  // (task_load_context) finds it.
  store::CheckpointRow checkpoint;
  checkpoint.id = new_random_id("cp-", 10);
  checkpoint.task_id = slot.id;
  checkpoint.seq = store::next_journal_seq(db, slot.id);
  if (!slot.execution_id.empty()) checkpoint.execution_id = slot.execution_id;
  checkpoint.type = CheckpointType::recovery;
  checkpoint.summary =
      "attempt " + std::to_string(slot.attempts) + " of run " + run.row.id + " failed: " + reason;
  nlohmann::json detail = {
      {"reason", reason}, {"attempt", slot.attempts}, {"run_id", run.row.id}, {"retry", retry}};
  if (check_output) detail["check_output"] = *check_output;
  checkpoint.detail = detail.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  checkpoint.created_at = now;
  store::PlanRepository(db).insert_checkpoint(checkpoint);
  // The claim ended with the agent; a task it left in progress or failed
  // goes back to ready for the next attempt, or fails for good.
  auto status = store::PlanRepository(db).task_status(slot.id);
  if (!retry) {
    set_task_status(slot.id, TaskStatus::failed, reason);
  } else if (status && *status != TaskStatus::pending) {
    set_task_status(slot.id, TaskStatus::pending, std::nullopt);
  }
  transaction.commit();
  events.publish_to(services_.events);
  free_slot(run, slot);
}

void RunService::attempt_stopped(ActiveRun& run, std::size_t node) {
  store::Database& db = services_.db;
  TaskSlot& slot = run.tasks[node];
  slot.timeout.reset();
  slot.check.reset();
  slot.state = SlotState::waiting;
  const std::string reason =
      run.halted ? "the run stopped at an agent that cannot start" : "the run was stopped";
  events::EventBatch events(services_.events);
  store::Transaction transaction(db);
  update_attempt(
      run, node,
      [&reason](store::AttemptRow& a) {
        a.status = AttemptStatus::stopped;
        a.reason = reason;
        a.ended_at = unix_ms_now();
      },
      events);
  auto status = store::PlanRepository(db).task_status(slot.id);
  if (status && *status != TaskStatus::pending && !is_done(*status)) {
    set_task_status(slot.id, TaskStatus::pending, std::nullopt);
  }
  transaction.commit();
  events.publish_to(services_.events);
  free_slot(run, slot);
}

void RunService::free_slot(ActiveRun& run, TaskSlot& slot) {
  retire_worktree(slot, WorkspaceStatus::abandoned);
  slot.execution_id.clear();
  schedule_pump(run.row.id);
}

void RunService::schedule_pump(const std::string& run_id) {
  to_pump_.push_back(run_id);
  pump_turn_.schedule();
}

void RunService::retire_worktree(TaskSlot& slot, WorkspaceStatus status) {
  if (slot.workspace_id.empty()) return;
  auto workspace = store::WorkspaceRepository(services_.db).find(slot.workspace_id);
  slot.workspace_id.clear();
  if (!workspace) return;
  const std::string id = workspace->id;
  const std::string repository = workspace->repository;
  const std::string branch = workspace->branch;
  // A merged branch is in the integration branch; an unmerged one is kept
  // for a person to look at.
  const bool delete_branch = status == WorkspaceStatus::merged;
  loop::queue_work(
      services_.loop,
      [repository, id, branch, delete_branch] {
        try {
          git::remove_worktree(repository, id, branch, delete_branch);
        } catch (const std::exception&) {
          // `mission workspaces clean` takes what is left.
        }
      },
      guarded([this, id] {
        try {
          store::Transaction transaction(services_.db);
          store::WorkspaceRepository(services_.db)
              .set_status(id, WorkspaceStatus::removed, std::nullopt, unix_ms_now());
          transaction.commit();
        } catch (const std::exception&) {
        }
      }));
  store::WorkspaceRepository(services_.db).set_status(id, status, std::nullopt, unix_ms_now());
}

void RunService::maybe_finish(ActiveRun& run) {
  for (const TaskSlot& slot : run.tasks) {
    if (is_busy(slot.state)) return;
  }
  if (run.merging || !run.merge_queue.empty()) return;
  if (run.stopping) {
    finish(run, RunStatus::stopped, "stopped");
    return;
  }
  if (run.halted) {
    const bool any_merged = std::any_of(run.tasks.begin(), run.tasks.end(), [](const TaskSlot& t) {
      return t.state == SlotState::merged;
    });
    finish(run, any_merged ? RunStatus::partial : RunStatus::failed, *run.halted);
    return;
  }
  if (waits_for_run_budget(run) || pick(run)) return;
  if (!run.landing_proved) {
    prove_landing(run);
    return;
  }
  std::size_t merged = 0;
  std::size_t failed = 0;
  std::size_t total = run.tasks.size();
  for (const TaskSlot& slot : run.tasks) {
    if (slot.state == SlotState::merged) ++merged;
    if (slot.state == SlotState::failed || slot.state == SlotState::conflicted) ++failed;
  }
  if (!run.unlanded.empty()) {
    std::string reason;
    for (const auto& line : run.unlanded) reason += (reason.empty() ? "" : "; ") + line;
    reason += ". Merge those commits into " + run.row.integration_branch +
              " again, or reset the tasks and run the workflow again";
    finish(run, merged > run.unlanded.size() ? RunStatus::partial : RunStatus::failed, reason);
  } else if (merged == total) {
    finish(run, RunStatus::completed, "every task merged into " + run.row.integration_branch);
  } else if (merged == 0) {
    finish(run, RunStatus::failed,
           std::to_string(failed) + " of " + std::to_string(total) + " tasks failed");
  } else {
    finish(run, RunStatus::partial,
           std::to_string(merged) + " of " + std::to_string(total) + " tasks merged, " +
               std::to_string(failed) + " failed, the rest blocked");
  }
}

void RunService::prove_landing(ActiveRun& run) {
  if (run.proving) return;
  run.proving = true;
  struct Landed {
    std::string what;
    std::string commit;
  };
  std::vector<Landed> landed;
  for (const TaskSlot& slot : run.tasks) {
    // A task done before the run began has no merge of this run's.
    if (slot.state != SlotState::merged || slot.merge_commit.empty()) continue;
    landed.push_back({"task '" + slot.name + "' (" + slot.id + ")", slot.merge_commit});
  }
  auto unlanded = std::make_shared<std::vector<std::string>>();
  const std::string run_id = run.row.id;
  loop::queue_work(
      services_.loop,
      [repository = run.row.repository, into = run.row.integration_branch, landed, unlanded] {
        for (const Landed& each : landed) {
          bool in = false;
          std::string why;
          try {
            in = git::branch_contains(repository, into, each.commit);
          } catch (const std::exception& e) {
            why = std::string(" (") + e.what() + ")";
          }
          if (!in) {
            unlanded->push_back(each.what + " merged at " + each.commit.substr(0, 12) +
                                " but is not in " + into + why);
          }
        }
      },
      guarded([this, run_id, unlanded] {
        ActiveRun* run = find(run_id);
        if (!run) return;
        run->proving = false;
        run->landing_proved = true;
        run->unlanded = std::move(*unlanded);
        maybe_finish(*run);
      }));
}

void RunService::finish(ActiveRun& run, RunStatus status, const std::string& reason) {
  store::Database& db = services_.db;
  live_->run_ended(run.row.id);
  const std::int64_t now = unix_ms_now();
  events::EventBatch events(services_.events);
  store::Transaction transaction(db);
  store::RunRepository(db).set_status(run.row.id, status, reason, now);
  run.row.status = status;
  run.row.reason = reason;
  run.row.ended_at = now;
  // The workflow ends with its run, unless it is stopped to go on later.
  if (status == RunStatus::failed || status == RunStatus::partial) {
    auto workflow = store::MissionRepository(db).find(run.row.workflow_id);
    if (workflow && !is_final(workflow->status)) {
      store::PlanRepository(db).set_status(
          run.row.workflow_id,
          status == RunStatus::failed ? MissionStatus::failed : MissionStatus::partial, reason,
          now);
    }
  }
  publish_run(events, run);
  transaction.commit();
  events.publish_to(services_.events);
  std::error_code ignored;
  std::filesystem::remove_all(services_.paths.launch_dir() / run.row.id, ignored);
  // Its gate worktrees go; one git still works on goes when that is done.
  for (const GateSlot& slot : run.gate_slots) {
    if (slot.working) continue;
    loop::queue_work(
        services_.loop, [tree = slot.tree] { remove_gate_tree(tree); }, [] {});
  }
  runs_.erase(run.row.id);
}

void RunService::publish_run(events::EventBatch& events, const ActiveRun& run) {
  if (!events.wanted()) return;
  nlohmann::json summary = {{"id", run.row.id},
                            {"status", run.row.status},
                            {"integrationBranch", run.row.integration_branch}};
  if (run.row.reason) summary["reason"] = *run.row.reason;
  // Once it has ended, what its agents used, for the line that ends the board.
  if (run.row.status != RunStatus::running && run.row.status != RunStatus::stopping) {
    const store::RunRepository::Totals totals =
        store::RunRepository(services_.db).totals(run.row.id);
    if (totals.attempts_reporting > 0) {
      summary["tokens"] = {{"input", totals.tokens_input},
                           {"output", totals.tokens_output},
                           {"total", totals.tokens_input + totals.tokens_output},
                           {"attemptsReporting", totals.attempts_reporting}};
      if (totals.cost_usd) summary["costUsd"] = *totals.cost_usd;
    }
  }
  events.add({{"type", kRunUpdated},
              {"runId", run.row.id},
              {"workflowId", run.row.workflow_id},
              {"run", summary}});
}

// --- approval ---------------------------------------------------------------

std::pair<RunService::ActiveRun*, std::size_t> RunService::awaiting_approval(
    const std::string& task_id) {
  for (auto& [id, run] : runs_) {
    for (std::size_t i = 0; i < run->tasks.size(); ++i) {
      const TaskSlot& slot = run->tasks[i];
      if (slot.id != task_id) continue;
      if (slot.state == SlotState::awaiting_approval) return {run.get(), i};
      throw MissionError(
          ErrorCode::invalid_argument,
          "task " + task_id + " (" + slot.name + ") is not waiting for approval",
          run->options.approve
              ? "mission workflows status " + run->row.workflow_id + " shows where it is"
              : "its run was started without --approve: its tasks merge when they pass",
          {{"task_id", task_id}});
    }
  }
  throw MissionError(ErrorCode::not_found, "no run under way has task " + task_id,
                     "mission workflows status WORKFLOW lists the tasks of a run",
                     {{"task_id", task_id}});
}

store::RunRow RunService::approve(const std::string& task_id, const std::string& person) {
  auto [run, node] = awaiting_approval(task_id);
  TaskSlot& slot = run->tasks[node];
  slot.state = SlotState::queued;
  events::EventBatch events(services_.events);
  {
    store::Transaction transaction(services_.db);
    update_attempt(
        *run, node,
        [&](store::AttemptRow& a) {
          a.status = AttemptStatus::queued;
          a.reason = "approved by " + person;
        },
        events);
    transaction.commit();
  }
  events.publish_to(services_.events);
  run->merge_queue.push_back(node);
  pump_merges(*run);
  return run->row;
}

store::RunRow RunService::reject(const std::string& task_id, const std::string& person,
                                 const std::string& reason) {
  auto [run, node] = awaiting_approval(task_id);
  attempt_failed(*run, node, "rejected by " + person + ": " + reason);
  return run->row;
}

// --- stopping and reading -------------------------------------------------

store::RunRow RunService::stop(const std::string& workflow_id) {
  store::Database& db = services_.db;
  planning::require_workflow(db, workflow_id, "id");
  auto live = store::RunRepository(db).live_of(workflow_id);
  if (!live) {
    throw MissionError(ErrorCode::not_found, "workflow " + workflow_id + " has no run under way",
                       "mission workflows status " + workflow_id + " shows its last run",
                       {{"workflow_id", workflow_id}});
  }
  ActiveRun* run = find(live->id);
  if (!run) {
    store::RunRepository(db).set_status(live->id, RunStatus::stopped, "stopped", unix_ms_now());
    return *store::RunRepository(db).find(live->id);
  }
  if (!run->stopping) {
    run->stopping = true;
    store::RunRepository(db).set_status(live->id, RunStatus::stopping, std::nullopt, std::nullopt);
    run->row.status = RunStatus::stopping;
    for (std::size_t i = 0; i < run->tasks.size(); ++i) {
      TaskSlot& slot = run->tasks[i];
      if (slot.state == SlotState::running) services_.launcher.stop(slot.execution_id, false);
    }
    run->merge_queue.clear();
  }
  // Checking and queued attempts end now; running ones when their agents
  // have (and a commit or a merge under way when it is done); the run once
  // nothing is left.
  // Gates under way are stopped with their batch: no ref moves to what
  // they judged. (Git work under way ends first; the batch then stops.)
  if (run->batch && !run->batch->running.empty()) end_batch(*run, false);
  for (std::size_t i = 0; i < run->tasks.size(); ++i) {
    TaskSlot& slot = run->tasks[i];
    if (slot.state == SlotState::budget_reached) leave_budget_wait(*run, i);
    if ((slot.state == SlotState::judging && slot.check) || slot.state == SlotState::queued ||
        slot.state == SlotState::awaiting_approval || slot.state == SlotState::prepared) {
      attempt_stopped(*run, i);
    }
  }
  schedule_pump(live->id);
  return run->row;
}

nlohmann::json RunService::run_json(const store::RunRow& run) {
  store::Database& db = services_.db;
  nlohmann::json options = nlohmann::json::parse(run.options, nullptr, false);
  if (options.is_object()) options.erase("env");
  nlohmann::json out = {{"id", run.id},
                        {"workflowId", run.workflow_id},
                        {"status", run.status},
                        {"repository", run.repository},
                        {"integrationBranch", run.integration_branch},
                        {"baseCommit", run.base_commit},
                        {"options", options},
                        {"sandbox", sandbox_of(options)},
                        {"createdAt", format_utc_iso8601(run.created_at)}};
  if (run.reason) out["reason"] = *run.reason;
  // It dispatches nothing more until a person raises the run's budget.
  if (auto note = run_budget_reached(db, run)) out["budgetReached"] = *note;
  put_landed(out, run);
  if (run.ended_at) {
    out["endedAt"] = format_utc_iso8601(*run.ended_at);
    out["durationMs"] = *run.ended_at - run.created_at;
  } else {
    out["durationMs"] = unix_ms_now() - run.created_at;
  }
  std::map<std::string, std::vector<store::AttemptRow>> by_task;
  for (auto& attempt : store::RunRepository(db).attempts(run.id))
    by_task[attempt.task_id].push_back(attempt);
  nlohmann::json tasks = nlohmann::json::array();
  std::map<std::string, std::int64_t> counts;
  std::int64_t attempts_total = 0;
  for (const store::PlannedTaskRow& task :
       store::PlanRepository(db).planned_tasks(run.workflow_id)) {
    const auto& attempts = by_task[task.id];
    const std::string status = task_run_status(task, attempts.empty() ? nullptr : &attempts.back());
    counts[status] += 1;
    attempts_total += static_cast<std::int64_t>(attempts.size());
    if (tasks.size() >= limits::kMaxPageItems) continue;
    nlohmann::json entry = {{"id", task.id}, {"name", task.name}, {"status", status}};
    if (ActiveRun* live = find(run.id); live && (status == "waiting" || status == "retrying")) {
      if (auto why = live_->holds(run.id, task.files_likely_affected)) entry["heldBy"] = *why;
    }
    nlohmann::json list = nlohmann::json::array();
    std::int64_t duration = 0;
    for (const auto& attempt : attempts) {
      nlohmann::json a = {{"attempt", attempt.attempt}, {"status", attempt.status}};
      if (attempt.execution_id) a["agentExecutionId"] = *attempt.execution_id;
      if (attempt.reason) a["reason"] = *attempt.reason;
      if (attempt.merge_commit) a["mergeCommit"] = *attempt.merge_commit;
      if (attempt.dispatch_us) a["dispatchUs"] = *attempt.dispatch_us;
      if (attempt.scope_warning) a["scopeWarning"] = *attempt.scope_warning;
      put_gate(a, attempt);
      put_refused_writes(a, db, attempt);
      const std::int64_t ms = attempt.ended_at.value_or(unix_ms_now()) - attempt.started_at;
      a["durationMs"] = ms;
      duration += ms;
      list.push_back(std::move(a));
    }
    entry["attempts"] = std::move(list);
    entry["durationMs"] = duration;
    tasks.push_back(std::move(entry));
  }
  out["tasks"] = std::move(tasks);
  out["counts"] = counts;
  out["attemptsTotal"] = attempts_total;
  // Each run of the gate judged one tree (a tree is judged once a run).
  if (options.is_object() && options.contains("gate"))
    out["gateRuns"] = store::RunRepository(db).gate_runs(run.id);
  return out;
}

}  // namespace mission::daemon::runs
