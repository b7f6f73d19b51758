#pragma once
// The daemon runs a workflow (docs/adr/0023): for each ready task, in the
// order the plan ranks them (longest remaining chain first) and up to the
// run's parallelism, a worktree from the integration branch, a claim, and
// an agent launched through its adapter. When the agent ends the task is
// judged (its exit, what it reported, the --check command in its
// worktree); a failure is retried with what failed in the next attempt's
// prompt and the task's journal, up to the attempts; a pass waits in the
// merge queue and is merged into the integration branch, one at a time,
// never leaving a half-merged tree. The run is the daemon's: it goes on
// without the CLI, stops on workflow.stop, and resumes after a restart.
//
// Everything here runs on the loop; git work goes to the thread pool.

#include <uv.h>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/worktrees.hpp"
#include "daemon/loop/next_turn.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/runs/gate_queue.hpp"
#include "daemon/runs/live_conflicts.hpp"
#include "daemon/runs/merge_gate.hpp"
#include "daemon/runs/run_options.hpp"
#include "daemon/runs/run_services.hpp"
#include "daemon/runs/task_check.hpp"
#include "daemon/runs/usage_watch.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/run_repository.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::runs {

// The live events of runs: {type, runId, workflowId, run} when a run's
// status changes, {type, runId, workflowId, attempt} when an attempt does.
inline constexpr std::string_view kRunUpdated = "run.updated";
inline constexpr std::string_view kRunAttempt = "run.attempt";

// A run's start, split around its git work like a workspace's: planned on
// the loop, its integration branch made on a pool thread, recorded back on
// the loop in the caller's transaction.
struct RunStart {
  std::string id;
  std::string workflow_id;
  std::string repository;
  std::string branch;  // the integration branch
  // An earlier run of the workflow made the branch: it goes on there. A
  // branch of that name nobody ran on is refused, never built upon.
  bool adopt_branch = false;
  RunOptions options;
  std::string base_commit;  // filled by run_start
};

class RunService {
 public:
  explicit RunService(RunServices services);
  ~RunService();
  RunService(const RunService&) = delete;
  RunService& operator=(const RunService&) = delete;

  // Checks the workflow (planned, with a plan, not ended, no live run).
  RunStart plan_start(const std::string& workflow_id, RunOptions options);
  // On a pool thread: the integration branch mission/run/<workflow id>,
  // made at the base unless an earlier run made it.
  static void run_start(RunStart& start);
  // On the loop, in the caller's transaction.
  store::RunRow record_start(const RunStart& start, events::EventBatch& events);
  // After the commit: dispatching begins on the next turn.
  void activate(const std::string& run_id);

  // Stops the workflow's live run: its agents are stopped and their tasks
  // go back to ready; the run ends stopped once they have. The run as it is.
  store::RunRow stop(const std::string& workflow_id);

  // A person approves a task of a run with --approve that passed and waits
  // (its merge goes ahead), or rejects it with a reason, which fails the
  // attempt: it is retried with the reason in its prompt while attempts
  // remain. Throws MissionError naming what the task is doing otherwise.
  // The run as it is.
  store::RunRow approve(const std::string& task_id, const std::string& person);
  store::RunRow reject(const std::string& task_id, const std::string& person,
                       const std::string& reason);

  // A person sets the budget of one task of the workflow's live run (or of
  // the run, without `change.task_id`), stored with the run's options; the
  // tasks it held at a budget go on in a new attempt in the same worktree
  // (docs/adr/0049). Throws MissionError naming a task the run does not
  // have, or what was used when the budget is not above it. The run as it is.
  store::RunRow set_budget(const std::string& workflow_id, const BudgetChange& change);

  // At start-up: every live run goes on. Agents a previous daemon ran were
  // lost; their attempts fail and are retried within their attempts.
  void resume();

  // The run with its tasks and attempts (control API, camelCase).
  nlohmann::json run_json(const store::RunRow& run);

  // The conflicts between the running tasks' worktrees (live_conflicts.hpp).
  const LiveConflicts& live_conflicts() const { return *live_; }

 private:
  enum class SlotState {
    waiting,
    preparing,
    prepared,  // its worktree is ready ahead of time; it waits for a free agent slot
    running,
    judging,
    awaiting_approval,
    queued,
    merging,
    merged,
    failed,
    conflicted,
    held,
    // Stopped at its task's or the run's budget: it keeps its worktree and
    // waits for a person to raise the budget (run_service_budget.cpp).
    budget_reached,
  };
  struct TaskSlot {
    std::string id;
    std::string name;
    SlotState state = SlotState::waiting;
    std::int64_t attempts = 0;  // begun so far
    std::string execution_id;
    std::string workspace_id;
    std::string worktree;
    std::string branch;
    std::string base_commit;
    std::optional<std::string> last_failure;
    std::optional<std::string> last_check_output;
    std::optional<std::string> last_gate_output;
    // The landed tasks' patches of the files the last attempt's landing
    // conflicted in, rendered for the prompt (kept in memory only).
    std::optional<std::string> last_conflict_patches;
    // What the attempt changed since its base (from judging it): a task
    // sent back by a conflict is told which landed task touched its files.
    std::vector<std::string> changed_paths;
    // Judged by an earlier daemon: changed_paths is not known until read
    // again from git (what its merge commit brought).
    bool changed_paths_lost = false;
    // Where it merged: proved to be in the integration branch at the end.
    std::string merge_commit;
    std::unique_ptr<loop::Timer> timeout;
    std::unique_ptr<TaskCheck> check;
    bool timed_out = false;
    // For the attempt's dispatch latency: when it was picked, and how long
    // its worktree took (left out).
    std::chrono::steady_clock::time_point picked_at;
    std::chrono::microseconds worktree_time{0};
    // Launched as soon as its worktree is ready; false while it is only
    // prepared ahead of a free slot.
    bool launch_when_ready = true;
    // Its agent is being stopped because a budget was reached: why.
    bool budget_stopped = false;
    std::string budget_note;
    // Attempts that ended at a budget: they do not count against
    // --max-attempts. Its next attempt is told why the last one stopped.
    std::int64_t budget_attempts = 0;
    std::optional<std::string> budget_resume;
  };
  // One --gate command on a prefix of the batch, while it runs.
  struct PrefixGate {
    std::size_t length = 0;
    std::size_t slot = 0;  // the run's gate worktree it holds
    // Its worktree is still being made or moved for an earlier gate.
    bool waiting = false;
    std::unique_ptr<TaskCheck> check;
  };
  // With --gate, one of the run's kept gate worktrees (merge_gate.hpp).
  struct GateSlot {
    GateTree tree;
    bool held = false;         // by a gate of the batch
    bool working = false;      // git work on it is under way on the pool
    bool known_clean = false;  // nothing ran in it since its last checkout
  };
  // With --gate, the tasks that waited to land, merged one after another
  // onto the integration tip and gated by prefix (gate_queue.hpp).
  struct GateBatch {
    std::uint64_t serial = 0;  // continuations of an earlier batch find nothing
    std::vector<std::size_t> nodes;
    std::vector<git::PlannedMerge> merges;  // merges[i] holds nodes[0..i]
    std::string onto;                       // the integration tip it was built on
    QueueState state;
    std::map<std::size_t, GateVerdict> round;  // this round's verdicts by prefix length
    std::set<std::size_t> found;               // lengths whose verdict was known, not run
    GateVerdict failing_verdict;               // the shortest failing prefix's
    std::vector<PrefixGate> running;
    // The integration tip once the first `landed` tasks are in.
    const std::string& tip(std::size_t landed) const {
      return landed == 0 ? onto : merges[landed - 1].commit;
    }
  };
  struct ActiveRun {
    store::RunRow row;
    RunOptions options;
    std::string workflow_name;
    std::shared_ptr<const planning::PlanState> plan;
    std::vector<TaskSlot> tasks;  // by plan node
    std::deque<std::size_t> merge_queue;
    std::unique_ptr<GateBatch> batch;  // with --gate, while one is under way
    std::uint64_t batches = 0;         // begun so far: each one's serial
    // The --gate's verdicts by merged tree id: a tree is judged once.
    std::map<std::string, GateVerdict> gate_verdicts;
    // Its gate worktrees, one for each gate that may run at once.
    std::vector<GateSlot> gate_slots;
    // Proof of landing, once nothing is left to do: each merged task's
    // merge commit is in the integration branch; `unlanded` says which are
    // not (the branch moved back after they merged).
    bool proving = false;
    bool landing_proved = false;
    std::vector<std::string> unlanded;
    bool merging = false;
    bool stopping = false;
    // Why the run launches no more agents (one could not start, so every
    // attempt would fail alike); it ends failed with this once what is
    // under way has ended.
    std::optional<std::string> halted;
  };

  // An agent, a check, a commit or a merge of the slot is under way, or it
  // waits for a budget to be raised.
  static bool is_busy(SlotState state);
  // Its attempts but those that ended at a budget: what --max-attempts bounds.
  static std::int64_t counted_attempts(const TaskSlot& slot) {
    return slot.attempts - slot.budget_attempts;
  }
  ActiveRun* find(const std::string& run_id);
  // The slot of `node` if its attempt is still `attempt` (a continuation
  // that comes back after the run moved on finds nothing).
  TaskSlot* slot_at(const std::string& run_id, std::size_t node, std::int64_t attempt);
  void load(const store::RunRow& row);
  void pump(ActiveRun& run);
  std::optional<std::size_t> pick(ActiveRun& run);
  // Its files_likely_affected cover a path in a live conflict: it waits.
  bool held_by_conflict(const ActiveRun& run, const TaskSlot& slot) const;
  // Makes the task's worktree, then launches its agent (or, when
  // `launch` is false, leaves it prepared for the next free slot).
  void dispatch(ActiveRun& run, std::size_t node, bool launch);
  void launch(ActiveRun& run, std::size_t node);
  void on_execution_ended(const std::string& execution_id);
  void judge(ActiveRun& run, std::size_t node);
  // Then what the attempt changed in its worktree against the plan's
  // files_likely_affected (change_scope.hpp), on a pool thread; then --check.
  void judge_scope(ActiveRun& run, std::size_t node, const std::string& files_likely_affected);
  void judge_check(ActiveRun& run, std::size_t node);
  void pass(ActiveRun& run, std::size_t node);
  void pump_merges(ActiveRun& run);
  // With --gate: every queued task merged in turn onto the current tip
  // (a task the tip already holds lands as it is; one that conflicts, and
  // those after it, wait for the next batch), then gated by prefix.
  void gate_queue(ActiveRun& run);
  void batch_planned(const std::string& run_id, std::uint64_t serial,
                     const std::vector<git::PlannedMerge>& chain, const std::string& error);
  // The next prefixes gated (or their verdicts found); the culprit sent
  // back, or the batch ended, when nothing is left to gate.
  void gate_round(ActiveRun& run);
  // The run's gate worktrees, the first made at the integration tip now,
  // while the agents work, so that the first gate only moves it.
  void prepare_gate_slots(ActiveRun& run);
  // A gate of the prefix of `length` takes a free gate worktree; it begins
  // once no git work is under way on it.
  void start_gate(ActiveRun& run, std::size_t length);
  // The gate's worktree moved to the prefix's merge, then its command run.
  void begin_gate(ActiveRun& run, PrefixGate& gate);
  // After a gate ran in it: what it wrote there is undone now, on the pool,
  // out of the next gate's way (which waits if it comes first).
  void tidy_gate_slot(ActiveRun& run, std::size_t slot, const std::string& commit);
  // Git work on a gate worktree is over: a gate waiting for it begins; a
  // run that has ended meanwhile has it removed.
  void gate_slot_done(const std::string& run_id, const GateTree& tree, std::size_t slot);
  void prefix_judged(const std::string& run_id, std::uint64_t serial, std::size_t length,
                     const CheckResult& result);
  // The run's batch `serial` and its gate of the prefix of `length` still
  // running; null when the batch or the gate has gone since it started.
  PrefixGate* running_gate(ActiveRun* run, std::uint64_t serial, std::size_t length);
  void round_done(ActiveRun& run);
  // The integration branch moved to the longest passing prefix by a
  // compare and swap; a tip that moved meanwhile sends the batch back to
  // the queue, to be merged and gated again.
  void land_prefix(ActiveRun& run, const QueueState& next);
  void send_back_culprit(ActiveRun& run);
  // The tasks go back to the front of the queue, in their order.
  void requeue(ActiveRun& run, const std::vector<std::size_t>& nodes);
  // Ends the batch: its gates stop, its worktrees go; what it did not land
  // waits in the queue (`requeue_rest`) or was stopped.
  void end_batch(ActiveRun& run, bool requeue_rest);
  // Records the gate's verdict on what the attempt landed with (or failed).
  void record_gate(ActiveRun& run, std::size_t node, const std::string& tree,
                   const std::string& onto, const GateVerdict& verdict);
  // The task's branch is in the integration branch at `commit`.
  void landed(ActiveRun& run, std::size_t node, const std::string& commit);
  // It could not merge: conflicts go back to the agent in a new attempt
  // on the new tip while attempts remain, else (and on any other error)
  // the task waits for a person.
  void merge_blocked(ActiveRun& run, std::size_t node, const std::string& error,
                     const std::vector<std::string>& conflicts);
  // Before a conflict goes back to its agent: what the landed tasks judged
  // by an earlier daemon changed, read from their merge commits on a pool
  // thread; then merge_blocked again.
  // A landing conflict goes back to the agent: the attempt fails
  // (conflicted) and the next one is told the files, each landed task that
  // changed them, its goal and its patch of them (read on a pool thread).
  void send_back_conflict(ActiveRun& run, std::size_t node, const std::string& reason,
                          const std::vector<std::string>& conflicts);
  void recover_changed_paths(ActiveRun& run, std::size_t node,
                             const std::vector<std::string>& conflicts);
  // The run and node of a task waiting for approval, or MissionError.
  std::pair<ActiveRun*, std::size_t> awaiting_approval(const std::string& task_id);
  void attempt_failed(ActiveRun& run, std::size_t node, const std::string& reason,
                      const std::optional<std::string>& check_output = std::nullopt,
                      AttemptStatus ended_as = AttemptStatus::failed, bool may_retry = true);
  void attempt_stopped(ActiveRun& run, std::size_t node);
  // Budgets (run_service_budget.cpp). After the execution's usage changed:
  // its task's budget, then the run's; an agent that reached one is stopped.
  void check_budget(const std::string& execution_id);
  void stop_at_budget(TaskSlot& slot, const std::string& note);
  // Its agent ended after being stopped at a budget: unless it completed
  // anyway (then it is judged as usual), the attempt ends budget_reached
  // and the task waits. True when it did.
  bool ended_at_budget(ActiveRun& run, std::size_t node);
  // Each slot waiting at a budget that no longer holds it goes on.
  void resume_budget_waits(ActiveRun& run);
  // The run stops: a task waiting at a budget gives up its worktree.
  void leave_budget_wait(ActiveRun& run, std::size_t node);
  // At load: the slot of each attempt read back, waiting at its budget
  // when its newest attempt ended there.
  void restore_budget_wait(ActiveRun& run, std::size_t node, const store::AttemptRow& attempt);
  // The run's own budget is used up: nothing more is dispatched.
  bool run_at_budget(ActiveRun& run);
  // And a task is left that would run: the run waits instead of ending.
  bool waits_for_run_budget(ActiveRun& run);
  // Reserved at dispatch (docs/adr/0049): whether the run's budget has
  // room for `slot` beside what the tasks already dispatched hold.
  bool fits_run_budget(ActiveRun& run, const TaskSlot& slot);
  // What `slot`'s task may still use of its own budget: what a dispatched
  // task holds of the run's (0 in a figure its task has no budget in).
  Spent task_left(const ActiveRun& run, const TaskSlot& slot);
  void maybe_finish(ActiveRun& run);
  // On a pool thread, then maybe_finish again.
  void prove_landing(ActiveRun& run);
  void finish(ActiveRun& run, RunStatus status, const std::string& reason);
  // The attempt row of a slot's current attempt, changed by `change`.
  void update_attempt(ActiveRun& run, std::size_t node,
                      const std::function<void(store::AttemptRow&)>& change,
                      events::EventBatch& events);
  void set_task_status(const std::string& task_id, TaskStatus status,
                       const std::optional<std::string>& text);
  // Removes a slot's worktree on a pool thread (keeping an unmerged branch)
  // and marks its workspace.
  void retire_worktree(TaskSlot& slot, WorkspaceStatus status);
  // After an attempt ended without a merge: its worktree goes (its branch
  // is kept), and the run looks for what to do next.
  void free_slot(ActiveRun& run, TaskSlot& slot);
  void schedule_pump(const std::string& run_id);
  // The agents' environment: the run's, and the task's MISSION_* names.
  std::map<std::string, std::string> agent_env(const ActiveRun& run, const TaskSlot& slot) const;
  void publish_run(events::EventBatch& events, const ActiveRun& run);

  // A continuation of pool work that runs only while this service lives:
  // work may finish while the daemon closes its loop, after it is gone.
  std::function<void()> guarded(std::function<void()> done) const;

  RunServices services_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::unique_ptr<LiveConflicts> live_;
  std::map<std::string, std::unique_ptr<ActiveRun>> runs_;
  std::unordered_map<std::string, std::pair<std::string, std::size_t>> by_execution_;
  // Ended executions are judged on the next turn, out of the exit callback
  // of their process.
  std::vector<std::string> ended_;
  loop::NextTurn judge_turn_;
  std::vector<std::string> to_pump_;
  std::vector<std::string> to_activate_;
  std::vector<std::unique_ptr<TaskCheck>> retired_checks_;
  loop::NextTurn pump_turn_;
  std::size_t end_observer_ = 0;
  // Last: gone first, so no check comes while the rest is torn down.
  std::unique_ptr<UsageWatch> usage_watch_;
};

}  // namespace mission::daemon::runs
