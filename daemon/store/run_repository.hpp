#pragma once
// Persistence of workflow runs and their attempts (docs/adr/0023).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct RunRow {
  std::string id;
  std::string workflow_id;
  RunStatus status = RunStatus::running;
  std::string options;  // JSON
  std::string repository;
  std::string integration_branch;
  std::string base_commit;
  std::optional<std::string> reason;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> ended_at;
  // Where a person landed it (mission workflows land): JSON {into, commit,
  // how, at}.
  std::optional<std::string> landed;
};

struct AttemptRow {
  std::string run_id;
  std::string task_id;
  std::int64_t attempt = 1;
  AttemptStatus status = AttemptStatus::running;
  std::optional<std::string> execution_id;
  std::optional<std::string> workspace_id;
  std::optional<std::string> reason;
  std::optional<std::string> check_output;
  std::optional<std::string> merge_commit;
  // From the task picked to its agent's process spawned, in microseconds,
  // the worktree's creation left out (the run's dispatch latency).
  std::optional<std::int64_t> dispatch_us;
  // What its agent reported in complete_task's metadata (tokens_input,
  // tokens_output), when it did during the attempt.
  std::optional<std::int64_t> tokens_input;
  std::optional<std::int64_t> tokens_output;
  // The files it changed outside the plan's files_likely_affected, when
  // it passed anyway (runs/change_scope.hpp).
  std::optional<std::string> scope_warning;
  // Its --gate on the merged tree (runs/merge_gate.hpp): the tree's id,
  // the integration tip it was merged onto, the verdict, the tail of the
  // output and when it ended. Unset when it was not gated.
  std::optional<std::string> gate_tree;
  std::optional<std::string> gate_onto;
  std::optional<bool> gate_passed;
  std::optional<std::string> gate_output;
  std::optional<std::int64_t> gate_at;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> ended_at;
};

class RunRepository {
 public:
  explicit RunRepository(Database& db) : db_(db) {}

  void insert(const RunRow& row);
  std::optional<RunRow> find(const std::string& id);
  // The live (running or stopping) run of a workflow.
  std::optional<RunRow> live_of(const std::string& workflow_id);
  // The newest run of a workflow, live or not.
  std::optional<RunRow> latest_of(const std::string& workflow_id);
  // Every live run, oldest first: resumed when the daemon starts.
  std::vector<RunRow> live();
  // The ids of every run that has ended: what it left in git may go.
  std::vector<std::string> ended_ids();
  void set_status(const std::string& id, RunStatus status, const std::optional<std::string>& reason,
                  std::optional<std::int64_t> ended_at);

  // Replaces the run's options (a budget raised while it runs, ADR 0049).
  void set_options(const std::string& id, const std::string& options);

  // Records where the run landed (RunRow::landed), replacing an earlier landing.
  void set_landed(const std::string& id, const std::string& landed);

  void insert_attempt(const AttemptRow& row);
  void update_attempt(const AttemptRow& row);
  // Every attempt of a run, by task then attempt.
  std::vector<AttemptRow> attempts(const std::string& run_id);
  std::optional<AttemptRow> attempt(const std::string& run_id, const std::string& task_id,
                                    std::int64_t attempt);
  // The attempt an execution runs, if any.
  std::optional<AttemptRow> attempt_of_execution(const std::string& execution_id);
  // Every attempt of the run's tasks `task_ids`, by task then attempt.
  std::vector<AttemptRow> attempts_of_tasks(const std::string& run_id,
                                            std::span<const std::string> task_ids);
  // The newest attempt of each task of the run, by task.
  std::vector<AttemptRow> latest_attempts(const std::string& run_id);
  void set_attempt_tokens(const std::string& run_id, const std::string& task_id,
                          std::int64_t attempt, std::optional<std::int64_t> input,
                          std::optional<std::int64_t> output);

  // A run's attempts and tokens added up: each attempt's from its agent's
  // stream (execution_usage) when it has them, else what its agent reported.
  struct Totals {
    std::int64_t attempts = 0;
    std::int64_t tokens_input = 0;
    std::int64_t tokens_output = 0;
    std::int64_t attempts_reporting = 0;  // attempts with tokens from either
    std::int64_t attempts_from_stream = 0;
    std::int64_t cache_read = 0;  // stream figures only
    std::int64_t cache_write = 0;
    std::optional<double> cost_usd;  // when any stream stated a cost
  };
  // Of the run, or of one task's attempts in it when `task_id` is given.
  Totals totals(const std::string& run_id,
                const std::optional<std::string>& task_id = std::nullopt);

  // The --gate's verdicts of a run, one per merged tree it judged.
  struct GateRow {
    std::string tree;
    std::string onto;
    bool passed = false;
    std::string reason;
    std::string output;
    std::int64_t at = 0;
  };
  // A tree already judged keeps its first verdict.
  void add_gate(const std::string& run_id, const GateRow& row);
  std::vector<GateRow> gates(const std::string& run_id);
  // How many times the run's gate ran.
  std::int64_t gate_runs(const std::string& run_id);

 private:
  Database& db_;
};

}  // namespace mission::store
