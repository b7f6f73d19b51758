#pragma once
// How a workflow run dispatches (mission workflows run, docs/adr/0023), and
// the bounds it keeps. Stored with the run as JSON so a restarted daemon
// resumes it as it was asked for.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/runs/run_budget.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "shared/permission_policy.hpp"

namespace mission::daemon::runs {

// At most this many agents of one run at once (--parallel).
inline constexpr std::int64_t kMaxRunParallel = 32;
// At most this many --gate commands of one run at once (--gate-parallel):
// each is a scratch worktree and a process of the gate command.
inline constexpr std::int64_t kMaxGateParallel = 8;
// At most this many attempts at one task (--max-attempts), and the default.
inline constexpr std::int64_t kMaxRunAttempts = 10;
inline constexpr std::int64_t kDefaultRunAttempts = 3;
// A --check command that runs longer than this fails its attempt.
inline constexpr std::int64_t kCheckTimeoutMs = 10 * 60 * 1000;
// What is kept of a failed check's output (its tail), for the attempt's
// record and the next attempt's context.
inline constexpr std::size_t kCheckOutputTailBytes = 4096;
// A merge that conflicts names at most this many of its files in the
// attempt's reason (and the next attempt's prompt); the rest are counted.
inline constexpr std::size_t kConflictPathsNamed = 20;
// The task prompt given in MISSION_TASK_PROMPT; a longer one is cut there
// and given whole in the file MISSION_TASK_PROMPT_FILE names.
inline constexpr std::size_t kMaxPromptEnvBytes = 32 * 1024;
// The token budget of the task context put into the prompt.
inline constexpr std::size_t kPromptContextTokens = 4000;

struct RunOptions {
  std::string adapter = "generic";
  // generic: the agent's command; other adapters: words put before the
  // task's prompt (the provider's own flags).
  std::vector<std::string> command;
  std::int64_t parallel = 1;
  std::optional<std::string> check;  // run with sh -c in the task's worktree
  // Run with sh -c on the tree that would land: the task's branch merged
  // onto the integration tip, in a scratch worktree (merge_gate.hpp).
  std::optional<std::string> gate;
  // How many prefixes of the queue are gated at once (gate_queue.hpp).
  std::int64_t gate_parallel = 1;
  std::int64_t max_attempts = kDefaultRunAttempts;
  std::optional<std::int64_t> task_timeout_ms;
  std::optional<std::string> base;  // where the integration branch starts; empty: HEAD
  bool approve = false;             // a person approves each merge (mission approve / reject)
  // Agents and checks confined to their worktrees (daemon/sandbox/); false:
  // --sandbox off, said in the run's report.
  bool sandbox = true;
  // How its agents run, as sandbox::confinement_state() said when the run
  // started; empty for a run stored before it was recorded.
  std::string sandbox_state;
  // --network none: its agents open no network socket; checks keep it.
  sandbox::Network network = sandbox::Network::on;
  // --allow-write: writable by its agents and checks beyond their profile.
  std::vector<std::filesystem::path> allow_write;
  // Tokens and cost each task, and the run, may use (run_budget.hpp).
  RunBudgets budgets;
  // --hide: not readable by its agents and checks, beside the secrets
  // every confined launch hides (docs/adr/0051).
  std::vector<std::filesystem::path> hide;
  // --allow, --deny, --policy: the permission requests of its ACP agents
  // the daemon answers itself (docs/adr/0053). Kept with the run, so a
  // restarted daemon answers them the same.
  PermissionPolicy permission_policy;
  // The agents' and checks' environment: the caller's, without mission's
  // per-execution variables. Kept out of the database (run_environment.hpp).
  std::map<std::string, std::string> env;
};

nlohmann::json options_json(const RunOptions& options);
// Throws MissionError invalid_argument naming a bad field.
// How a stored run's agents ran (its options' sandboxState, or what its
// sandbox setting says for a run stored before that was recorded).
std::string sandbox_of(const nlohmann::json& options);

RunOptions options_from_json(const nlohmann::json& j);

}  // namespace mission::daemon::runs
