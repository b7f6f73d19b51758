#pragma once
// `mission check` proves a workflow's landing again (docs/adr/0041,
// "Proof of landing"): against the integration branch as it is now, each
// task its latest run merged must still be there (its merge commit
// reachable, no path it changed back to what it was before). A branch
// reset or a revert after the run fails the check, naming the task.
// Planned on the loop from the store, proved on a pool thread (libgit2),
// added to the check's answer back on the loop.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/git/landing_proof.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::runs {

struct LandedTask {
  std::string task_id;
  std::string name;
  git::LandedChange change;
  git::LandingProof proof;  // filled by prove_landings
  std::string proved_on;    // the branch it was proved against
  std::string error;        // what stopped the proof, if anything did
};

struct LandingCheck {
  std::string workflow_id;
  std::string run_id;
  std::string repository;
  std::string branch;
  // Where a person landed the run (mission workflows land), if they did:
  // proved there when the integration branch is gone.
  std::string landed_into;
  std::vector<LandedTask> tasks;
};

// On the loop: for each of `mission_ids` that is a workflow whose latest
// run merged tasks, what to prove.
std::vector<LandingCheck> plan_landing_checks(store::Database& db,
                                              const std::vector<std::string>& mission_ids);

// On a pool thread: touches nothing but `checks` and the repositories.
void prove_landings(std::vector<LandingCheck>& checks);

// On the loop: adds a `change_not_landed` problem (never relaxed by a flag)
// for each task whose change is missing to `result` (check_missions'
// answer), the workflow's entry and the whole result then failing, and
// each workflow's `landing` ({runId, integrationBranch, tip, proved,
// missing}).
void add_landing_problems(nlohmann::json& result, const std::vector<LandingCheck>& checks);

}  // namespace mission::daemon::runs
