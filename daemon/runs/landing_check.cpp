#include "daemon/runs/landing_check.hpp"

#include <map>

#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::runs {
namespace {

std::string short_id(const std::string& commit) {
  return commit.substr(0, 12);
}

// Why the task's change is not on the branch, or "" when it is.
std::string missing_because(const LandedTask& task) {
  if (!task.error.empty()) return "its landing could not be checked: " + task.error;
  const git::LandingProof& proof = task.proof;
  if (proof.tip.empty()) return "branch " + task.proved_on + " is gone";
  if (!proof.reachable) {
    return "its merge commit " + short_id(task.change.merge_commit) + " is no longer in " +
           task.proved_on + " (now at " + short_id(proof.tip) +
           "): the branch was reset or rewritten";
  }
  if (proof.undone_count == 0) return "";
  std::string paths;
  for (const auto& path : proof.undone) paths += (paths.empty() ? "" : ", ") + path;
  if (proof.undone_count > proof.undone.size())
    paths += " and " + std::to_string(proof.undone_count - proof.undone.size()) + " more";
  return "its change to " + paths + " was undone on " + task.proved_on + " since " +
         short_id(task.change.merge_commit) + " (a revert, or the lines taken back)";
}

}  // namespace

std::vector<LandingCheck> plan_landing_checks(store::Database& db,
                                              const std::vector<std::string>& mission_ids) {
  std::vector<LandingCheck> checks;
  store::MissionRepository missions(db);
  store::RunRepository runs(db);
  store::WorkspaceRepository workspaces(db);
  for (const auto& id : mission_ids) {
    auto mission = missions.find(id);
    if (!mission || mission->kind == MissionKind::mission) continue;
    auto run = runs.latest_of(id);
    if (!run) continue;
    LandingCheck check{id, run->id, run->repository, run->integration_branch, "", {}};
    if (run->landed) {
      const auto landed = nlohmann::json::parse(*run->landed, nullptr, false);
      if (landed.is_object() && landed.contains("into") && landed.at("into").is_string())
        check.landed_into = landed.at("into").get<std::string>();
    }
    std::map<std::string, std::string> names;
    for (const auto& task : store::PlanRepository(db).planned_tasks(id)) names[task.id] = task.name;
    // The newest merged attempt of each task (attempts come by task, then
    // attempt): a later one replaces an earlier.
    std::map<std::string, LandedTask> landed;
    for (const auto& attempt : runs.attempts(run->id)) {
      if (attempt.status != AttemptStatus::merged || !attempt.merge_commit) continue;
      LandedTask task{
          attempt.task_id, names[attempt.task_id], {*attempt.merge_commit, ""}, {}, {}, {}};
      if (attempt.workspace_id) {
        if (auto workspace = workspaces.find(*attempt.workspace_id))
          task.change.base_commit = workspace->base_commit.value_or("");
      }
      landed[attempt.task_id] = std::move(task);
    }
    for (auto& [task_id, task] : landed) check.tasks.push_back(std::move(task));
    if (!check.tasks.empty()) checks.push_back(std::move(check));
  }
  return checks;
}

void prove_landings(std::vector<LandingCheck>& checks) {
  for (LandingCheck& check : checks) {
    for (LandedTask& task : check.tasks) {
      try {
        task.proved_on = check.branch;
        task.proof = git::prove_landing(check.repository, check.branch, task.change);
        if (task.proof.tip.empty() && !check.landed_into.empty()) {
          task.proved_on = check.landed_into;
          task.proof = git::prove_landing(check.repository, check.landed_into, task.change);
        }
      } catch (const std::exception& e) {
        task.error = e.what();
      }
    }
  }
}

void add_landing_problems(nlohmann::json& result, const std::vector<LandingCheck>& checks) {
  nlohmann::json& missions = result["missions"];
  for (const LandingCheck& check : checks) {
    nlohmann::json problems = nlohmann::json::array();
    std::string tip;
    for (const LandedTask& task : check.tasks) {
      if (tip.empty()) tip = task.proof.tip;
      std::string why = missing_because(task);
      if (why.empty()) continue;
      nlohmann::json undone = task.proof.undone;
      problems.push_back(
          {{"kind", "change_not_landed"},
           {"runId", check.run_id},
           {"taskId", task.task_id},
           {"name", task.name},
           {"integrationBranch", check.branch},
           {"mergeCommit", task.change.merge_commit},
           {"undone", std::move(undone)},
           {"relaxed", false},
           {"message", "task " + task.task_id + " '" + task.name + "' of run " + check.run_id +
                           " is not in " + task.proved_on + ": " + why + ". Merge " +
                           short_id(task.change.merge_commit) + " into " + check.branch +
                           " again, or run the task again"}});
    }
    nlohmann::json landing = {{"runId", check.run_id},
                              {"integrationBranch", check.branch},
                              {"tip", tip},
                              {"proved", check.tasks.size() - problems.size()},
                              {"missing", problems.size()}};
    nlohmann::json* entry = nullptr;
    for (auto& mission : missions) {
      if (mission.value("missionId", "") == check.workflow_id) entry = &mission;
    }
    if (entry == nullptr) {
      if (problems.empty()) continue;  // a passing workflow the list left out stays out
      missions.push_back({{"missionId", check.workflow_id},
                          {"kind", "workflow"},
                          {"ok", true},
                          {"problems", nlohmann::json::array()}});
      entry = &missions.back();
      if (result.value("passedOmitted", 0) > 0)
        result["passedOmitted"] = result.value("passedOmitted", 0) - 1;
    }
    (*entry)["landing"] = std::move(landing);
    if (problems.empty()) continue;
    (*entry)["ok"] = false;
    result["ok"] = false;
    // Bounded as the check's own problems are, the rest counted.
    nlohmann::json& listed = (*entry)["problems"];
    for (auto& problem : problems) {
      if (listed.size() < limits::kMaxChangedPathsShown) {
        listed.push_back(std::move(problem));
      } else {
        (*entry)["problemsOmitted"] = entry->value("problemsOmitted", 0) + 1;
      }
    }
  }
}

}  // namespace mission::daemon::runs
