#pragma once
// A plan a person writes and reviews in a diff (mission workflows create
// --from FILE): TOML, or JSON in the shape of workflow_set_plan's plan, with
// workflow_create's max_parallel_tasks and auto_create_workspaces beside it.
// Read and checked here, in the CLI, so that each mistake names its line and
// its task; the daemon takes the checked plan whole (workflow.create) and
// never reads a person's files.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "shared/limits.hpp"

namespace mission::cli {

// The plan file's limits (mission(1), LIMITS). Largest plan file read, in
// bytes; a larger one is refused before it is parsed. Half a frame, so
// that the plan as JSON (escapes and all) fits one workflow.create request.
inline constexpr std::size_t kMaxPlanFileBytes = limits::kMaxFrameBytes / 2;
// Most tasks a planned workflow may run at once (max_parallel_tasks);
// schemas/tools/workflow_create.input.json says the same.
inline constexpr std::int64_t kMaxParallelTasks = 64;
// Tasks a refused cycle names in its message; a longer one is cut, with
// how many tasks it goes through in all.
inline constexpr std::size_t kMaxCycleTasksShown = 10;

enum class PlanFormat { toml, json };

// By the file's extension (.toml, .json), else by its content: JSON starts
// with '{'.
PlanFormat plan_format(std::string_view file_name, std::string_view text);

// The plan in `text` as workflow.create takes it: {"plan": {summary,
// approach, tasks, risks, assumptions}} plus maxParallelTasks and
// autoCreateWorkspaces when the file gives them. Each task has a sequence
// (0 when the file gives none) and its lists, empty when not given.
// `file_name` names the file in errors: "plan.toml:12: task `api`: ...".
// Throws MissionError: payload_too_large past kMaxPlanFileBytes,
// invalid_argument for the first mistake found (a syntax error, an unknown
// key, a wrong type, a name given twice, a depends_on no task answers, a
// task depending on itself, a cycle), with its line when the format
// keeps lines (TOML; JSON's syntax errors only).
nlohmann::json parse_plan_file(std::string_view text, const std::string& file_name);

// A plan file's text, or stdin's for "-": read to one byte past
// kMaxPlanFileBytes at most, so that a larger one (or an endless stdin) is
// refused by parse_plan_file without reading it all. Throws MissionError
// invalid_argument, with the reason, when it cannot be read.
std::string read_plan_text(const std::string& path);

}  // namespace mission::cli
