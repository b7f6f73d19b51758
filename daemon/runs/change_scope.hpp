#pragma once
// How a run judges what an attempt changed in its worktree against the
// files its plan said the task would touch (files_likely_affected, read
// with the scope rule of git/scope_rule.hpp). Pure: no store, no git.
//   - The plan names files and the agent changed nothing at all: the
//     attempt fails; the plan expected work and none was done (an agent
//     whose edits were refused still exits 0).
//   - It changed files none of the plan's entries covers: the attempt
//     passes with a warning naming them (at most kScopeWarningPaths), kept
//     on the attempt for `mission workflows status` and `mission report`.
//     Plans guess; a person or --check decides whether that matters.
//   - A plan that names no files is not checked.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mission::daemon::runs {

inline constexpr std::size_t kScopeWarningPaths = 10;

struct ScopeVerdict {
  std::optional<std::string> failure;
  std::optional<std::string> warning;
};

// `changed`: the worktree's changed paths since the attempt's base;
// `files_likely_affected`: the task's JSON array of areas.
ScopeVerdict judge_change_set(const std::vector<std::string>& changed,
                              const std::string& files_likely_affected);

}  // namespace mission::daemon::runs
