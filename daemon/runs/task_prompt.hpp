#pragma once
// What an agent a run dispatches is told: its task, where it works, what
// failed last time, and the task's context within a token budget
// (task_load_context); and how each agent CLI takes that prompt.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/planning/plan_cache.hpp"
#include "daemon/sandbox/refused_writes.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::runs {

struct PromptInput {
  std::string workflow_id;
  std::string workflow_name;
  store::PlannedTaskRow task;
  std::int64_t attempt = 1;
  std::int64_t max_attempts = 1;
  std::string branch;  // the worktree's branch
  // Why the previous attempt failed, and the tail of its check's output.
  std::optional<std::string> previous_failure;
  std::optional<std::string> previous_check_output;
  // The tail of --gate's output when the previous attempt's merged tree
  // failed it (its reason names what it was merged onto).
  std::optional<std::string> previous_gate_output;
  // The previous attempt's landing conflicted: the landed tasks' patches of
  // the conflicting files, each in a fenced block (conflict_patch.hpp).
  std::optional<std::string> previous_conflict_patches;
  // The writes the previous attempt's sandbox refused (read from its
  // agent's output), and the worktree the agent is told to work in instead.
  std::vector<sandbox::RefusedWrite> previous_refused_writes;
  // The previous attempt was stopped at a budget, since raised: why (its
  // attempt's reason). This attempt goes on in the same worktree.
  std::optional<std::string> previous_budget;
  std::string worktree;
};

// The prompt, in Markdown.
std::string task_prompt(store::Database& db, planning::PlanCache* plans, const PromptInput& input);

// Writes the whole prompt to <launch dir>/<group>/<name> and returns the
// path, for agents that read it from MISSION_TASK_PROMPT_FILE. The launch
// dir is the adapters' too, which they refuse unless it is private: made
// here first (a daemon's first agent), it is made 0700, and so is `group`.
// A failure to write is left for the launch to report.
std::filesystem::path write_prompt_file(const RuntimePaths& paths, const std::string& group,
                                        const std::string& name, const std::string& prompt);

// The words that give `prompt` to adapter `adapter`'s CLI in its one-shot
// mode, after the words the run was given (`extra`): claude -p PROMPT,
// codex exec PROMPT, opencode run PROMPT, copilot -p PROMPT, pi -p PROMPT;
// Claude Code, Codex and Copilot CLI get the leave to edit their worktree
// first (--permission-mode acceptEdits, -c sandbox_mode="workspace-write",
// --allow-tool=write); a Codex that mission confines (`confined`) gets
// -c sandbox_mode="danger-full-access" instead, mission's sandbox standing
// for its own.
// The generic adapter's command is used as given: its agent reads the
// prompt from its environment.
std::vector<std::string> prompt_arguments(const std::string& adapter,
                                          const std::vector<std::string>& extra,
                                          const std::string& prompt, bool confined);

}  // namespace mission::daemon::runs
