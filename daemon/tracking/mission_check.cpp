#include "daemon/tracking/mission_check.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/key_style.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
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
  for (const auto& attempt : runs.latest_attempts(run->id))
    latest[attempt.task_id] = attempt.status;
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
      if (waiting.size() < limits::kMaxChangedPathsShown)
        waiting.push_back({{"taskId", task.id}, {"name", task.name}});
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

namespace {

// Where a record's pages go on: its lists in order (the tasks, then the
// open blockers), each from a row position; and the last task given, which
// must still be there (a plan replaced between two pages would otherwise
// join two plans in one record).
struct RecordPosition {
  bool blockers = false;
  std::int64_t after = 0;
  std::string last_task;
};

constexpr std::string_view kTasksCursor = "tasks:";
constexpr std::string_view kBlockersCursor = "blockers:";

std::string cursor_text(const RecordPosition& position) {
  if (position.blockers) return std::string(kBlockersCursor) + std::to_string(position.after);
  return std::string(kTasksCursor) + std::to_string(position.after) + ":" + position.last_task;
}

RecordPosition parse_cursor(store::Database& db, const store::MissionRow& mission,
                            const std::string& text) {
  if (text.empty()) return {};
  auto refuse = [&] {
    throw MissionError(
        ErrorCode::invalid_argument, "'" + text + "' is not a cursor of mission.export",
        "pass the afterCursor of the previous page, or \"\" for the first", {{"field", "after"}});
  };
  const bool blockers = text.rfind(kBlockersCursor, 0) == 0;
  if (!blockers && text.rfind(kTasksCursor, 0) != 0) refuse();
  std::string rest = text.substr(blockers ? kBlockersCursor.size() : kTasksCursor.size());
  RecordPosition position{blockers, 0, {}};
  if (!blockers) {
    const std::size_t colon = rest.find(':');
    if (colon == std::string::npos) refuse();
    position.last_task = rest.substr(colon + 1);
    rest.resize(colon);
  }
  if (rest.empty() || rest.size() > 18 || rest.find_first_not_of("0123456789") != std::string::npos)
    refuse();
  position.after = std::stoll(rest);
  if (!blockers) {
    auto task = store::TaskRepository(db).find(position.last_task);
    if (!task || task->mission_id != mission.id) {
      throw MissionError(ErrorCode::invalid_argument,
                         "the tasks of " + mission.id + " were replaced while its record was read",
                         "export it again", {{"field", "after"}});
    }
  }
  return position;
}

std::size_t reply_bytes(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

// Adds items to `list` while they fit `room` (an item and its comma at a
// time; the page's first item always goes in). False once one did not.
bool fits(nlohmann::json& list, nlohmann::json item, std::size_t& room, bool page_empty) {
  const std::size_t bytes = room == std::string::npos ? 0 : reply_bytes(item) + 1;
  if (bytes > room && !page_empty) return false;
  if (room != std::string::npos) room -= std::min(room, bytes);
  list.push_back(std::move(item));
  return true;
}

}  // namespace

nlohmann::json mission_record_page(store::Database& db, const store::MissionRow& mission,
                                   const std::string& after, std::size_t max_bytes) {
  RecordPosition position = parse_cursor(db, mission, after);
  nlohmann::json page = {{"format", kMissionRecordFormat},
                         {"exportedAt", format_utc_iso8601(unix_ms_now())},
                         {"mission", mission_json(mission, KeyStyle::camel)}};
  if (after.empty()) {
    nlohmann::json run = run_record(db, mission);
    if (!run.is_null()) page["run"] = std::move(run);
  }
  // Room for the lists: the header, the lists' keys and the paging fields
  // take the rest (kept generously: the reply's envelope is around it too).
  constexpr std::size_t kFrameBytes = 1024;
  std::size_t room = std::string::npos;
  if (max_bytes != std::string::npos) {
    const std::size_t fixed = reply_bytes(page) + kFrameBytes;
    room = max_bytes > fixed ? max_bytes - fixed : 0;
  }
  nlohmann::json tasks = nlohmann::json::array();
  nlohmann::json blockers = nlohmann::json::array();
  bool full = false;
  store::PageRequest request;
  request.limit = limits::kMaxPageItems;
  if (!position.blockers) {
    store::TaskRepository task_rows(db);
    for (;;) {
      request.after = position.after;
      auto rows = task_rows.page(mission.id, {}, request);
      std::vector<std::string> ids;
      for (const auto& row : rows.rows) ids.push_back(row.id);
      auto changes = load_task_changes(db, ids);
      for (std::size_t i = 0; i < rows.rows.size() && !full; ++i) {
        const auto& row = rows.rows[i];
        if (!fits(tasks, task_json(row, changes[row.id], KeyStyle::camel), room, tasks.empty())) {
          full = true;
        } else {
          position.after = rows.positions[i];
          position.last_task = row.id;
        }
      }
      if (full || !rows.more) break;
    }
    if (!full) position = {true, 0, {}};
  }
  if (!full) {
    store::JournalRepository journal(db);
    for (;;) {
      request.after = position.after;
      auto rows = journal.issues(mission.id, {}, request, true);
      for (std::size_t i = 0; i < rows.rows.size() && !full; ++i) {
        if (!fits(blockers, issue_json(rows.rows[i], KeyStyle::camel), room,
                  tasks.empty() && blockers.empty())) {
          full = true;
        } else {
          position.after = rows.positions[i];
        }
      }
      if (full || !rows.more) break;
    }
  }
  page["tasks"] = std::move(tasks);
  page["openBlockers"] = std::move(blockers);
  page["more"] = full;
  if (full) page["afterCursor"] = cursor_text(position);
  return page;
}

nlohmann::json mission_record(store::Database& db, const store::MissionRow& mission) {
  nlohmann::json record = mission_record_page(db, mission, "", std::string::npos);
  record.erase("more");
  return record;
}

nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules) {
  std::vector<nlohmann::json> records;
  records.reserve(mission_ids.size());
  for (const auto& id : mission_ids)
    records.push_back(mission_record(db, require_mission(db, id, "mission")));
  return check_mission_records(records, rules);
}

}  // namespace mission::daemon::tracking
