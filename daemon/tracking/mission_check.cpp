#include "daemon/tracking/mission_check.hpp"

#include <map>

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/key_style.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/clock.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {

namespace {

// The workflow's latest run as its record carries it (null without one):
// how it ended, and the tasks of a live run that wait for a person.
nlohmann::json run_record(store::Database& db, const store::MissionRow& mission) {
  if (mission.kind == MissionKind::mission) return nullptr;
  store::RunRepository runs(db);
  auto run = runs.latest_of(mission.id);
  if (!run) return nullptr;
  std::map<std::string, AttemptStatus> latest;
  for (const auto& attempt : runs.latest_attempts(run->id)) latest[attempt.task_id] = attempt.status;
  std::int64_t merged = 0;
  std::int64_t awaiting = 0;
  nlohmann::json waiting = nlohmann::json::array();
  const auto tasks = store::PlanRepository(db).planned_tasks(mission.id);
  for (const auto& task : tasks) {
    auto found = latest.find(task.id);
    if (found == latest.end()) continue;
    if (found->second == AttemptStatus::merged) ++merged;
    if (found->second == AttemptStatus::awaiting_approval) {
      ++awaiting;
      if (waiting.size() < limits::kMaxChangedPathsShown) waiting.push_back({{"taskId", task.id}, {"name", task.name}});
    }
  }
  nlohmann::json out = {{"runId", run->id},
                        {"status", run->status},
                        {"integrationBranch", run->integration_branch},
                        {"taskCount", tasks.size()},
                        {"merged", merged},
                        {"awaitingApproval", std::move(waiting)},
                        {"awaitingApprovalCount", awaiting}};
  if (run->reason) out["reason"] = *run->reason;
  return out;
}

}  // namespace

nlohmann::json mission_record(store::Database& db, const store::MissionRow& mission) {
  nlohmann::json tasks = nlohmann::json::array();
  store::TaskRepository task_rows(db);
  store::PageRequest request;
  request.after = 0;
  request.limit = limits::kMaxPageItems;
  for (;;) {
    auto page = task_rows.page(mission.id, {}, request);
    std::vector<std::string> ids;
    for (const auto& row : page.rows) ids.push_back(row.id);
    auto changes = load_task_changes(db, ids);
    for (const auto& row : page.rows) tasks.push_back(task_json(row, changes[row.id], KeyStyle::camel));
    if (!page.more) break;
    request.after = page.positions.back();
  }
  nlohmann::json blockers = nlohmann::json::array();
  store::JournalRepository journal(db);
  request.after = 0;
  for (;;) {
    auto page = journal.issues(mission.id, {}, request, true);
    for (const auto& issue : page.rows) blockers.push_back(issue_json(issue, KeyStyle::camel));
    if (!page.more) break;
    request.after = page.positions.back();
  }
  nlohmann::json record = {{"format", kMissionRecordFormat},
                            {"exportedAt", format_utc_iso8601(unix_ms_now())},
                            {"mission", mission_json(mission, KeyStyle::camel)},
                            {"tasks", std::move(tasks)},
                            {"openBlockers", std::move(blockers)}};
  nlohmann::json run = run_record(db, mission);
  if (!run.is_null()) record["run"] = std::move(run);
  return record;
}

nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules) {
  std::vector<nlohmann::json> records;
  records.reserve(mission_ids.size());
  for (const auto& id : mission_ids) records.push_back(mission_record(db, require_mission(db, id, "mission")));
  return check_mission_records(records, rules);
}

}  // namespace mission::daemon::tracking
