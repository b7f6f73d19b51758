#pragma once
// The other side's patch in the prompt of a task sent back by a landing
// conflict (docs/adr/0041, "A conflict at landing"): the part of a landed
// task's unified diff that touches the conflicting files, bounded.

#include <cstddef>
#include <string>
#include <vector>

namespace mission::daemon::runs {

// The most of one landed task's patch a sent-back prompt carries, and of
// all of them together: enough for the hunks of a few files, small beside
// limits::kMaxAttemptPromptBytes.
inline constexpr std::size_t kMaxConflictPatchBytes = 16 * 1024;
inline constexpr std::size_t kMaxConflictPatchesBytes = 32 * 1024;

// The sections of `patch` (git's unified diff, "diff --git a/X b/Y"
// headers) whose old or new path is one of `paths` (sorted), at most
// `max_bytes`, cut at a line with a note of what was left out. Agent text
// stays data: the caller puts it in a fenced block.
std::string patch_of_paths(const std::string& patch, const std::vector<std::string>& paths,
                           std::size_t max_bytes);

}  // namespace mission::daemon::runs
