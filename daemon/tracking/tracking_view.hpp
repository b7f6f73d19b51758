#pragma once
// The JSON shape of tracked records, as tools (snake_case, the seeds' keys)
// and the control API (camelCase) show them: ISO 8601 UTC times, absent
// fields left out, change sets as counts plus their first paths.

#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/key_style.hpp"

namespace mission::daemon::tracking {

// A task's change set as views show it: its counts and its first paths.
struct TaskChanges {
  store::ChangeCounts counts;
  std::vector<store::ChangeRow> first;  // at most limits::kMaxChangedPathsShown
};

// The change sets of `task_ids`, in a fixed number of queries.
std::map<std::string, TaskChanges> load_task_changes(store::Database& db,
                                                     std::span<const std::string> task_ids);

// `counts` adds {tasks{total, completed, failed}, open_blockers}.
nlohmann::json mission_json(const store::MissionRow& row, KeyStyle style,
                            const store::MissionCounts* counts = nullptr);
nlohmann::json phase_json(const store::PhaseRow& row, std::int64_t tasks_count, KeyStyle style);
nlohmann::json task_json(const store::TaskRow& row, const TaskChanges& changes, KeyStyle style);
// {added, modified, deleted, renamed[{from, to}], counts{added, modified,
// deleted, renamed}, total, truncated}: the first paths of each kind, and
// how many there are of each and in all.
nlohmann::json files_changed_json(const TaskChanges& changes, KeyStyle style);
nlohmann::json change_json(const store::ChangeRow& change, KeyStyle style);
nlohmann::json decision_json(const store::DecisionRow& row, KeyStyle style);
nlohmann::json issue_json(const store::IssueRow& row, KeyStyle style);
nlohmann::json milestone_json(const store::MilestoneRow& row, KeyStyle style);

// Whole seconds from `from_ms` to `to_ms`.
std::int64_t duration_seconds(std::int64_t from_ms, std::int64_t to_ms);
// An issue that still needs a person: flagged for human review and not yet
// resolved with `mission resolve`.
bool is_open_blocker(const store::IssueRow& row);

}  // namespace mission::daemon::tracking
