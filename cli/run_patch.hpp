#pragma once
// What a workflow's run changed, as git sees it in the run's repository:
// the run's patch (its base commit to its integration branch) and each
// task's (what its merge brought into the integration branch, or its
// unmerged branch against the commit it started from). `mission workflows
// diff` shows them; `mission report` lists a task's files from them.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mission::cli {

// Two revisions: the patch is `git diff from to`.
struct PatchRange {
  std::string from;
  std::string to;
};

// The run's patch: its base commit to its integration branch. `run` is a
// run of workflow.runReport (with repository, baseCommit and
// integrationBranch).
PatchRange run_patch_range(const nlohmann::json& run);

// One task's patch in `repository`: its newest merged attempt's merge (the
// merge commit's first parent to it, or for a fast-forward the attempt's
// base commit to it), else its newest attempt's branch while git still has
// it; nullopt when no attempt left work git can show. Runs git.
std::optional<PatchRange> task_patch_range(const std::string& repository,
                                           const nlohmann::json& task);

// The files `range` changes, as {added, modified, deleted} lists of paths
// (a rename is a deletion and an addition). Runs git.
nlohmann::json files_in_range(const std::string& repository, const PatchRange& range);

}  // namespace mission::cli
