#pragma once
// The JSON shape of tracked records, as tools, the control API and
// `mission ... --json` show them: snake_case keys as in the tracking seeds,
// ISO 8601 UTC times, absent fields left out.

#include <nlohmann/json.hpp>

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"

namespace mission::daemon::tracking {

nlohmann::json mission_json(const store::MissionRow& row);
nlohmann::json phase_json(const store::PhaseRow& row, std::size_t tasks_count);
nlohmann::json task_json(const store::TaskRow& row);
nlohmann::json decision_json(const store::DecisionRow& row);
nlohmann::json issue_json(const store::IssueRow& row);
nlohmann::json milestone_json(const store::MilestoneRow& row);

// Whole seconds from `from_ms` to `to_ms`.
std::int64_t duration_seconds(std::int64_t from_ms, std::int64_t to_ms);

// An issue that still needs a person: flagged for human review and not yet
// resolved with `mission resolve`.
bool is_open_blocker(const store::IssueRow& row);

}  // namespace mission::daemon::tracking
