#pragma once
// The CI gate behind `mission check`: a mission passes when no task failed,
// no blocker is open and every completed task stayed in its declared areas.
// Each rule can be relaxed; every failure is named with what to do about it.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::daemon::tracking {

struct CheckRules {
  bool allow_failed = false;    // failed tasks do not fail the check
  bool allow_blockers = false;  // open blockers do not
  bool allow_scope = false;     // scope mismatches do not
};

// {ok, missions: [{missionId, name, kind, status, ok, problems: [{kind, ...,
// message, relaxed}], warnings: [...], problemsOmitted?}], passedOmitted?}
// for the missions named (camelCase: a control-API answer). Lists are
// bounded; what does not fit is counted.
nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules);

}  // namespace mission::daemon::tracking
