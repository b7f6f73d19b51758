#pragma once
// A mission's record as it travels with the code: what `mission export`
// writes to git notes or a file, and what `mission check` judges. The daemon
// builds records from its database; `mission check --from-notes` and
// `--from FILE` read them on a fresh clone with no daemon. Both end in the
// same rules below, so the gate says the same thing in either place.
//
// A record holds the mission, its tasks and its open blockers as the control
// API shows them (`mission missions show`, `mission tasks --json`):
//   {format: "mission-record/1", exportedAt,
//    mission: {missionId, name, kind, status, ...},
//    tasks: [{taskId, name, status, areas, filesChanged, outcome,
//             verification: {scopeMatch, unexpectedFiles, unexpectedCount}}],
//    openBlockers: [{id, taskId, description, ...}],
//    run?: {runId, status, reason?, integrationBranch, taskCount, merged,
//           awaitingApproval: [{taskId, name}], awaitingApprovalCount}}
// `run` is a workflow's latest run (mission workflows run): the check fails
// when it ended failed, partial or stopped, or waits for a person's
// approval; a run still under way is a warning.

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace mission {

inline constexpr std::string_view kMissionRecordFormat = "mission-record/1";

struct CheckRules {
  bool allow_failed = false;      // failed tasks do not fail the check
  bool allow_blockers = false;    // open blockers do not
  bool allow_scope = false;       // scope mismatches do not
  bool allow_unfinished = false;  // tasks never started or completed, runs under way do not
};

// Throws MissionError(invalid_argument) naming what is wrong when `record`
// is not a record this version reads.
void require_mission_record(const nlohmann::json& record);

// {missionId, name, kind, status, ok, problems: [{kind, ..., message,
// relaxed}], warnings: [...], problemsOmitted?, warningsOmitted?}. The lists
// are bounded; what does not fit is counted.
nlohmann::json check_mission_record(const nlohmann::json& record, const CheckRules& rules);

// {ok, missions: [...], passedOmitted?}: every failing mission named,
// passing ones while the answer stays small.
nlohmann::json check_mission_records(const std::vector<nlohmann::json>& records,
                                     const CheckRules& rules);

}  // namespace mission
