#include "daemon/runs/task_prompt.hpp"

#include <unistd.h>

#include <array>
#include <fstream>
#include <string_view>

#include "daemon/planning/workflows.hpp"
#include "daemon/runs/run_options.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::runs {
namespace {

// How each agent CLI takes a one-shot prompt: the words before it. And the
// words a run gives first, before the ones the user gave after `--` (so the
// user's own flags come later and win): a run is unattended, in a worktree
// of its own that it commits and judges, so the agent may edit files there
// without asking (docs/adr/0027). Without them a one-shot Claude Code has its
// Write and Edit tools refused ("you haven't granted it yet"), Copilot CLI
// its apply_patch ("Permission denied because no interactive user response
// was available"), and Codex exec runs its commands in a read-only sandbox.
// Only edits: no shell without asking for Claude Code and Copilot CLI, and
// Codex's sandbox stays on (the worktree writable, not the rest of the
// disk). OpenCode and Pi already edit without asking. Confined by mission
// (docs/adr/0036), Codex is told to leave its own sandbox off: mission's
// is the same fence, and Codex's needs a user namespace whose uid_map a
// confined agent may not write, so every command it ran failed.
struct PromptForm {
  std::string_view adapter;
  std::array<std::string_view, 2> first;  // empty words are skipped
  std::string_view before;
};
constexpr PromptForm kPromptForms[] = {
    {"claude-code", {"--permission-mode", "acceptEdits"}, "-p"},
    {"codex", {"-c", "sandbox_mode=\"workspace-write\""}, "exec"},
    {"copilot", {"--allow-tool=write"}, "-p"},
    {"opencode", {}, "run"},
    {"pi", {}, "-p"},
};

std::string json_list(const std::string& text) {
  nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
  if (!list.is_array() || list.empty()) return {};
  std::string out;
  for (const auto& item : list) {
    out += "- " + (item.is_string() ? item.get<std::string>() : item.dump()) + "\n";
  }
  return out;
}

}  // namespace

std::string task_prompt(store::Database& db, planning::PlanCache* plans, const PromptInput& input) {
  const store::PlannedTaskRow& task = input.task;
  std::string out = "# Task: " + task.name + "\n\n";
  out += "You are one agent of a mission workflow run. Your task is \"" + task.name +
         "\" (task id " + task.id + ", attempt " + std::to_string(input.attempt) + " of " +
         std::to_string(input.max_attempts) + ") in workflow \"" + input.workflow_name + "\" (" +
         input.workflow_id + ").\n";
  out +=
      "You work in a git worktree of your own, on branch " + input.branch +
      ". Edit the files the task needs and commit them; what you leave uncommitted is committed "
      "for you "
      "when you exit. Exit with status 0 when the task is done, non-zero when you cannot do it.\n";
  out += "If you have mission's MCP tools, start_task with task_id " + task.id +
         " before you work and complete_task when you are done.\n\n";
  if (!task.description.empty()) out += "## What to do\n\n" + task.description + "\n\n";
  if (std::string files = json_list(task.files_likely_affected); !files.empty()) {
    out += "## Files likely affected\n\n" + files + "\n";
  }
  if (std::string criteria = json_list(task.acceptance_criteria); !criteria.empty()) {
    out += "## Acceptance criteria\n\n" + criteria + "\n";
  }
  if (input.previous_budget) {
    out += "## The previous attempt stopped at its budget\n\n" + *input.previous_budget +
           ". The budget was raised since: go on from where it stopped. Its work is in this "
           "worktree as it left it; nothing was reset.\n\n";
  }
  if (input.previous_failure) {
    out += "## The previous attempt failed\n\n" + *input.previous_failure + "\n";
    if (input.previous_check_output && !input.previous_check_output->empty()) {
      out += "\nThe end of the check's output:\n\n```\n" + *input.previous_check_output + "\n```\n";
    }
    if (input.previous_gate_output && !input.previous_gate_output->empty()) {
      out +=
          "\nThe end of the gate's output, run on your branch merged onto the integration "
          "branch:\n\n```\n" +
          *input.previous_gate_output + "\n```\n";
    }
    if (input.previous_conflict_patches) out += *input.previous_conflict_patches;
    out += "\n";
  }
  if (!input.previous_refused_writes.empty()) {
    // Said whether or not the attempt failed for it: an agent that wrote
    // outside its worktree often fails for something else.
    out += "## Writes your sandbox refused last time\n\n";
    const std::string where =
        input.worktree.empty() ? std::string("your worktree") : input.worktree;
    for (const sandbox::RefusedWrite& write : input.previous_refused_writes) {
      out += "- Your " + write.operation + " of " + write.path + " was refused: work in " + where +
             ".\n";
    }
    out += "\nYou may write only in your worktree " + where + " (branch " + input.branch +
           "), your temporary folder ($TMPDIR) and your agent's own state; everything else "
           "is refused.\n\n";
  }
  planning::TaskLoadContextRequest request;
  request.task_id = task.id;
  request.max_tokens = kPromptContextTokens;
  try {
    nlohmann::json context = planning::task_load_context(db, plans, request);
    out += "## Context (task_load_context)\n\n```json\n" +
           context.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n```\n";
  } catch (const std::exception&) {
    // The prompt stands without it.
  }
  return out;
}

std::filesystem::path write_prompt_file(const RuntimePaths& paths, const std::string& group,
                                        const std::string& name, const std::string& prompt) {
  try {
    ensure_private_dir(paths.launch_dir(), ::getuid());
  } catch (const MissionError&) {
    // The launch reports it, naming the dir.
  }
  const std::filesystem::path dir = paths.launch_dir() / group;
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ignored);
  const std::filesystem::path file = dir / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << prompt;
  return file;
}

std::vector<std::string> prompt_arguments(const std::string& adapter,
                                          const std::vector<std::string>& extra,
                                          const std::string& prompt, bool confined) {
  for (const PromptForm& form : kPromptForms) {
    if (form.adapter != adapter) continue;
    std::vector<std::string> words;
    for (std::string_view word : form.first) {
      if (!word.empty()) words.emplace_back(word);
    }
    if (confined && adapter == "codex") words.back() = "sandbox_mode=\"danger-full-access\"";
    words.insert(words.end(), extra.begin(), extra.end());
    words.emplace_back(form.before);
    words.push_back(prompt);
    return words;
  }
  return extra;  // generic: the command as given
}

}  // namespace mission::daemon::runs
