// get_context: a mission's state for an agent (often a subagent joining
// late): phase summary, tasks, decisions, milestones and open blockers,
// narrowed by phase, agent and time, each list capped at kMaxContextItems.

#include <set>

#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

struct Filter {
  std::optional<std::int64_t> phase;
  std::optional<std::string> agent;
  std::optional<std::int64_t> since_ms;
};

Filter read_filter(const nlohmann::json& args) {
  Filter filter;
  if (!args.contains("filter")) return filter;
  const nlohmann::json& f = args.at("filter");
  if (f.contains("phase")) filter.phase = f.at("phase").get<std::int64_t>();
  filter.agent = text_arg(f, "agent");
  if (auto since = text_arg(f, "since")) {
    filter.since_ms = parse_iso8601(*since);
    if (!filter.since_ms) {
      throw MissionError(ErrorCode::invalid_argument, "filter.since '" + *since + "' is not an ISO 8601 time",
                         "use a time like 2026-11-23T10:00:00Z", {{"field", "filter.since"}});
    }
  }
  return filter;
}

bool task_matches(const store::TaskRow& task, const Filter& filter) {
  if (filter.phase && task.phase_number != filter.phase) return false;
  if (filter.agent && task.agent_name != filter.agent) return false;
  return true;
}

bool recent(std::int64_t at, const Filter& filter) { return !filter.since_ms || at >= *filter.since_ms; }

// Keeps the newest kMaxContextItems of `items` (oldest first) under `key`,
// and counts what was left out.
void put_list(nlohmann::json& out, const char* key, nlohmann::json items) {
  const std::size_t total = items.size();
  if (total > limits::kMaxContextItems) {
    items.erase(items.begin(), items.end() - static_cast<std::ptrdiff_t>(limits::kMaxContextItems));
    out["omitted"][key] = total - limits::kMaxContextItems;
  }
  out[key] = std::move(items);
}

}  // namespace

nlohmann::json mission_context(store::Database& db, const nlohmann::json& args) {
  store::MissionRow mission = require_mission(db, args.at("mission_id").get<std::string>(), "mission_id");
  const Filter filter = read_filter(args);
  std::set<std::string> include;
  for (const auto& item : args.at("include")) include.insert(item.get<std::string>());

  nlohmann::json out = {{"mission_id", mission.id},
                        {"kind", mission.kind},
                        {"mission_name", mission.name},
                        {"mission_status", mission.status},
                        {"current_phase", mission.current_phase}};
  if (mission.total_phases) out["total_phases"] = *mission.total_phases;

  auto tasks = store::TaskRepository(db).list_for_mission(mission.id);
  std::set<std::string> task_ids;  // the tasks the filter keeps
  for (const auto& task : tasks) {
    if (task_matches(task, filter)) task_ids.insert(task.id);
  }
  store::JournalRepository journal(db);

  if (include.count("phase_summary")) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& phase : store::MissionRepository(db).phases(mission.id)) {
      if (filter.phase && phase.number != *filter.phase) continue;
      std::size_t count = 0;
      for (const auto& task : tasks) count += task.phase_id == phase.id ? 1 : 0;
      phases.push_back(phase_json(phase, count));
    }
    put_list(out, "phase_summary", std::move(phases));
  }
  if (include.count("tasks")) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& task : tasks) {
      if (task_ids.count(task.id) && recent(task.started_at, filter)) items.push_back(task_json(task));
    }
    put_list(out, "tasks", std::move(items));
  }
  if (include.count("decisions")) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& row : journal.decisions(mission.id)) {
      if (task_ids.count(row.task_id) && recent(row.created_at, filter)) items.push_back(decision_json(row));
    }
    put_list(out, "decisions", std::move(items));
  }
  if (include.count("milestones")) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& row : journal.milestones(mission.id)) {
      if (task_ids.count(row.task_id) && recent(row.created_at, filter)) items.push_back(milestone_json(row));
    }
    put_list(out, "milestones", std::move(items));
  }
  if (include.count("blockers")) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& row : journal.issues(mission.id)) {
      if (is_open_blocker(row) && task_ids.count(row.task_id) && recent(row.created_at, filter)) {
        items.push_back(issue_json(row));
      }
    }
    put_list(out, "blockers", std::move(items));
  }
  return out;
}

}  // namespace mission::daemon::tracking
