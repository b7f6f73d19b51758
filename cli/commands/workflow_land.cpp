// Reviewing and landing a workflow's run from the shell: mission workflows
// diff WF [TASK] shows the run's patch or one task's through git, and
// mission workflows land WF moves the base branch to the run's integration
// branch (a fast-forward, or with --merge a merge commit when the base
// moved and the two merge cleanly) and records the landing on the run.
// git does the work, as a person would: the daemon holds no lock on the
// person's checkout, and `git merge --ff-only` updates a checked-out base
// the way people know, or refuses without losing anything.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/git_command.hpp"
#include "cli/list_pages.hpp"
#include "cli/output.hpp"
#include "cli/run_patch.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ReviewOptions {
  std::string id;
  std::string task;
  std::string into;
  bool stat = false;
  bool merge = false;
  bool partial = false;
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The task of the run named by its id or its name.
const nlohmann::json& task_named(const nlohmann::json& run, const std::string& workflow,
                                 const std::string& wanted) {
  for (const auto& task : run.at("tasks")) {
    if (task.value("taskId", "") == wanted) return task;
  }
  for (const auto& task : run.at("tasks")) {
    if (task.value("name", "") == wanted) return task;
  }
  throw MissionError(
      ErrorCode::not_found,
      "workflow " + workflow + " has no task '" + wanted + "' in its last run",
      "name a task by the id or name mission workflows status " + workflow + " shows");
}

int diff_workflow(const CliContext& context, const ReviewOptions& given) {
  DaemonConnection connection = context.connect();
  ReviewOptions options = given;
  options.id = resolve_workflow(connection.client, given.id);
  const nlohmann::json run = fetch_last_run(connection.client, options.id);
  if (run.is_null()) {
    throw MissionError(ErrorCode::not_found, "workflow " + options.id + " has never been run",
                       "start it with mission workflows run " + options.id);
  }
  const std::string repository = run.value("repository", "");
  PatchRange range = run_patch_range(run);
  if (!options.task.empty()) {
    const nlohmann::json& task = task_named(run, options.id, options.task);
    auto found = task_patch_range(repository, task);
    if (!found) {
      throw MissionError(ErrorCode::not_found,
                         "task " + task.value("taskId", "") + " of workflow " + options.id +
                             " left no work git can show: it never merged and its branch is gone",
                         "see what its attempts did with mission workflows status " + options.id);
    }
    range = *found;
  }
  std::vector<std::string> args = {"diff", color_enabled() ? "--color=always" : "--no-color"};
  if (options.stat) args.push_back("--stat");
  args.insert(args.end(), {range.from, range.to, "--"});
  return run_git_attached(repository, args) == 0 ? kExitOk : kExitFailure;
}

// --- land ---------------------------------------------------------------------

std::optional<std::string> branch_tip(const std::string& repository, const std::string& branch) {
  GitResult found =
      run_git(repository, {"rev-parse", "--verify", "--quiet", "refs/heads/" + branch});
  if (found.exit_code != 0) return std::nullopt;
  return trimmed(found.out);
}

bool is_ancestor(const std::string& repository, const std::string& ancestor,
                 const std::string& of) {
  return run_git(repository, {"merge-base", "--is-ancestor", ancestor, of}).exit_code == 0;
}

// The branch to land on: --into, else the run's --base when it names a
// branch, else the branch checked out in the repository's main worktree.
std::string landing_branch(const std::string& repository, const nlohmann::json& run,
                           const ReviewOptions& options) {
  if (!options.into.empty()) return options.into;
  const nlohmann::json run_options = run.value("options", nlohmann::json::object());
  const std::string base = run_options.value("base", "");
  if (!base.empty() && branch_tip(repository, base)) return base;
  GitResult head = run_git(repository, {"symbolic-ref", "--quiet", "--short", "HEAD"});
  if (head.exit_code != 0) {
    throw MissionError(ErrorCode::invalid_argument,
                       repository + " has no branch checked out to land on",
                       "name the branch with --into BRANCH");
  }
  return trimmed(head.out);
}

// The worktree that has `branch` checked out, if any.
std::optional<std::string> checkout_of(const std::string& repository, const std::string& branch) {
  const std::string list =
      git_output(repository, {"worktree", "list", "--porcelain"}, "check the repository with git");
  std::string path;
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t end = list.find('\n', at);
    if (end == std::string::npos) end = list.size();
    const std::string line = list.substr(at, end - at);
    if (line.rfind("worktree ", 0) == 0) path = line.substr(9);
    if (line == "branch refs/heads/" + branch) return path;
    at = end + 1;
  }
  return std::nullopt;
}

// The tasks of the run that did not merge, by name, for the refusal.
std::string unmerged_names(const nlohmann::json& run) {
  std::string names;
  for (const auto& task : run.value("tasks", nlohmann::json::array())) {
    const std::string status = task.value("status", "");
    if (status == "merged" || status == "done") continue;
    names += (names.empty() ? "" : ", ") + task.value("name", "") + " (" + status + ")";
  }
  return safe(names);
}

// How many of the run's tasks did not merge, and how many it has.
std::pair<std::int64_t, std::int64_t> unmerged_count(const nlohmann::json& run) {
  std::int64_t unmerged = 0;
  std::int64_t total = 0;
  const nlohmann::json counts = run.value("counts", nlohmann::json::object());
  for (const auto& [status, n] : counts.items()) {
    total += n.get<std::int64_t>();
    if (status != "merged" && status != "done") unmerged += n.get<std::int64_t>();
  }
  return {unmerged, total};
}

// A merge commit of `theirs` into `ours` when git merges them without a
// conflict; a refusal naming the conflicting paths otherwise. Only objects
// are written: no branch moves and no work tree changes.
std::string merge_commit(const std::string& repository, const std::string& into,
                         const std::string& ours, const std::string& branch,
                         const std::string& theirs) {
  GitResult merged =
      run_git(repository, {"merge-tree", "--write-tree", "--name-only", ours, theirs});
  if (merged.exit_code == 1) {
    // The tree, then each conflicting path, then a blank line and git's messages.
    std::string paths;
    std::size_t at = merged.out.find('\n');
    while (at != std::string::npos && at + 1 < merged.out.size()) {
      const std::size_t end = merged.out.find('\n', at + 1);
      const std::string path =
          merged.out.substr(at + 1, end == std::string::npos ? end : end - at - 1);
      if (path.empty()) break;
      paths += (paths.empty() ? "" : ", ") + path;
      at = end;
    }
    throw MissionError(ErrorCode::git_error,
                       "merging " + branch + " into " + into + " conflicts in " + safe(paths) +
                           "; nothing was changed",
                       "merge by hand (git merge " + branch + " on " + into +
                           "), or run the workflow again from the new " + into);
  }
  if (merged.exit_code != 0) {
    throw MissionError(ErrorCode::git_error,
                       "git merge-tree failed: " + trimmed(merged.err) + "; nothing was changed",
                       "git 2.38 or newer merges without a checkout; merge by hand");
  }
  const std::string tree = trimmed(merged.out.substr(0, merged.out.find('\n')));
  return trimmed(
      git_output(repository,
                 {"commit-tree", tree, "-p", ours, "-p", theirs, "-m",
                  "Merge branch '" + branch + "' into " + into},
                 "set your identity (git config user.name and user.email), then land again"));
}

// Moves `into` from `from` to `to`: in the worktree that has it checked
// out as `git merge --ff-only` does (refused with changes not committed),
// else the ref alone, only if it still points at `from`.
void move_branch(const std::string& repository, const std::string& into, const std::string& from,
                 const std::string& to) {
  if (auto checkout = checkout_of(repository, into)) {
    const std::string changes = git_output(
        *checkout, {"status", "--porcelain", "--untracked-files=no"}, "check it with git status");
    if (!changes.empty()) {
      throw MissionError(ErrorCode::invalid_argument,
                         into + " is checked out in " + *checkout +
                             " with changes not committed; nothing was changed",
                         "commit or stash them (git stash), then land again");
    }
    git_output(*checkout, {"merge", "--ff-only", "--quiet", to},
               "nothing was changed; move what is in the way, then land again");
    return;
  }
  git_output(repository,
             {"update-ref", "-m", "mission workflows land", "refs/heads/" + into, to, from},
             into + " moved meanwhile; land again");
}

int land_workflow(const CliContext& context, const ReviewOptions& given) {
  DaemonConnection connection = context.connect();
  DaemonClient& client = connection.client;
  ReviewOptions options = given;
  options.id = resolve_workflow(client, given.id);
  const nlohmann::json run = client.call("workflow.runStatus", {{"id", options.id}}).at("run");
  const std::string status = run.value("status", "");
  if (status == "running" || status == "stopping") {
    throw MissionError(ErrorCode::invalid_argument,
                       "the run of workflow " + options.id + " is still running",
                       "wait for it to end (mission workflows show " + options.id +
                           " --follow) or stop it, then land it");
  }
  const auto [unmerged, total] = unmerged_count(run);
  if (unmerged > 0 && !options.partial) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::to_string(unmerged) + " of " + std::to_string(total) +
                           " tasks of workflow " + options.id +
                           " did not merge: " + unmerged_names(run),
                       "run it again to finish them (mission workflows run " + options.id +
                           "), or land what merged with --partial");
  }
  const std::string repository = run.value("repository", "");
  const std::string branch = run.value("integrationBranch", "");
  const std::string into = landing_branch(repository, run, options);
  const auto tip = branch_tip(repository, branch);
  if (!tip) {
    throw MissionError(ErrorCode::not_found, "the run's branch " + branch + " is gone",
                       "run the workflow again (mission workflows run " + options.id + ")");
  }
  const auto base = branch_tip(repository, into);
  if (!base) {
    throw MissionError(ErrorCode::not_found, "there is no branch " + into + " in " + repository,
                       "name the branch to land on with --into BRANCH");
  }
  std::string target = *tip;
  std::string how = "fast-forward";
  const bool already = is_ancestor(repository, *tip, *base);
  if (already) {
    target = *base;  // already there: record it, change nothing
  } else if (!is_ancestor(repository, *base, *tip)) {
    if (!options.merge) {
      throw MissionError(ErrorCode::git_error,
                         into + " moved since the run started, so " + branch +
                             " cannot fast-forward it; nothing was changed",
                         "merge it with mission workflows land " + options.id + " --merge");
    }
    target = merge_commit(repository, into, *base, branch, *tip);
    how = "merge";
  }
  if (!already) move_branch(repository, into, *base, target);
  nlohmann::json landed = client.call("workflow.landed", {{"id", options.id},
                                                          {"runId", run.value("id", "")},
                                                          {"into", into},
                                                          {"commit", target},
                                                          {"how", how}});
  if (context.options.json) {
    print_json(landed);
    return kExitOk;
  }
  if (already) {
    std::printf("%s already holds %s; nothing changed.\n", into.c_str(), branch.c_str());
  } else {
    std::printf("Landed %s on %s at %s (%s).\n", branch.c_str(), into.c_str(),
                target.substr(0, 12).c_str(), how.c_str());
  }
  if (unmerged > 0) {
    std::printf("%lld task%s did not merge and did not land: %s\n",
                static_cast<long long>(unmerged), unmerged == 1 ? "" : "s",
                unmerged_names(run).c_str());
  }
  return kExitOk;
}

template <int (*Run)(const CliContext&, const ReviewOptions&)>
void on_run(CLI::App* command, CliContext& context, std::shared_ptr<ReviewOptions> options) {
  command->callback([&context, options] {
    context.action = [&context, options] { return Run(context, *options); };
  });
}

}  // namespace

void define_workflow_review_commands(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<ReviewOptions>();
  CLI::App* diff = command.add_subcommand(
      "diff", "Show a workflow run's patch, or one task's, through git diff");
  diff->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  diff->add_option("task", options->task, "Only this task's patch (name or id)")->type_name("TASK");
  diff->add_flag("--stat", options->stat, "Only the files and their changed lines");
  on_run<diff_workflow>(diff, context, options);
  CLI::App* land = command.add_subcommand(
      "land", "Move the base branch to a finished run's branch (fast-forward, or --merge)");
  land->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  land->add_option("--into", options->into,
                   "The branch to land on (default: the run's --base, else the checked-out branch)")
      ->type_name("BRANCH");
  land->add_flag("--merge", options->merge,
                 "When the base moved: merge the run's branch into it if they merge cleanly");
  land->add_flag("--partial", options->partial, "Land what merged though some tasks did not");
  on_run<land_workflow>(land, context, options);
}

}  // namespace mission::cli
