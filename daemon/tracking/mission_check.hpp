#pragma once
// The CI gate behind `mission check`, and the records `mission export`
// writes: a mission's record is built from the store here, and judged by
// the rules of shared/mission_record.hpp, the same rules that judge an
// exported record on a fresh clone.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/mission_repository.hpp"
#include "shared/mission_record.hpp"

namespace mission::daemon::tracking {

using mission::CheckRules;

// The mission's record (format kMissionRecordFormat): the mission, every
// task with its bounded change set and scope result, its open blockers,
// and for a workflow that was run, its latest run.
nlohmann::json mission_record(store::Database& db, const store::MissionRow& mission);

// {ok, missions: [{missionId, name, kind, status, ok, problems, warnings,
// ...}], passedOmitted?} for the missions named (camelCase: a control-API
// answer). Lists are bounded; what does not fit is counted.
nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules);

}  // namespace mission::daemon::tracking
