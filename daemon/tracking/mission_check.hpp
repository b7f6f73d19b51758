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

// One page of that record, for a record too large for one reply: a record
// whose tasks and openBlockers are a slice of the whole, in order (the
// tasks, then the blockers), their JSON within `max_bytes` (a page always
// holds at least one item). `after` is "" for the first page, which alone
// carries the run, or the previous page's afterCursor; `more` says whether
// pages remain. Throws MissionError invalid_argument for a cursor this
// function did not give.
nlohmann::json mission_record_page(store::Database& db, const store::MissionRow& mission,
                                   const std::string& after, std::size_t max_bytes);

// {ok, missions: [{missionId, name, kind, status, ok, problems, warnings,
// ...}], passedOmitted?} for the missions named (camelCase: a control-API
// answer). Lists are bounded; what does not fit is counted.
nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules);

}  // namespace mission::daemon::tracking
