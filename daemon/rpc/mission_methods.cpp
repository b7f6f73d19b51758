#include "daemon/rpc/mission_methods.hpp"

#include <memory>

#include "daemon/mcp/tracking_decoders.hpp"
#include "daemon/runs/landing_check.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/required_rows.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

constexpr auto kCamel = tracking::KeyStyle::camel;

// The mission a person's command names; the hint is a command of theirs.
store::MissionRow require_mission(store::Database& db, const std::string& id) {
  return store::require_mission(db, id, "mission", "'mission missions list' shows them");
}

}  // namespace

void from_json(const nlohmann::json& j, MissionListRequest& request) {
  if (j.contains("cwd")) request.cwd = j.at("cwd").get<std::string>();
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, MissionIdRequest& request) {
  request.id = j.at("id").get<std::string>();
}

void from_json(const nlohmann::json& j, MissionExportRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("after")) request.after = j.at("after").get<std::string>();
}

void from_json(const nlohmann::json& j, MissionPageRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.kind = j.value("kind", "");
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, MissionContextRequest& request) {
  tracking::GetContextRequest& context = request.context;
  context.mission_id = j.at("missionId").get<std::string>();
  for (const auto& name : j.at("include")) {
    context.include.insert(tracking::context_list_named(name.get<std::string>()));
  }
  if (j.contains("filter")) {
    const nlohmann::json& filter = j.at("filter");
    if (filter.contains("phase")) context.filter.phase = filter.at("phase").get<std::int64_t>();
    if (filter.contains("agent")) context.filter.agent = filter.at("agent").get<std::string>();
    if (filter.contains("since")) {
      context.filter.since_ms =
          tracking::parse_time_field(filter.at("since").get<std::string>(), "filter.since");
    }
  }
  if (j.contains("cursor")) context.cursor = j.at("cursor").get<std::string>();
  if (j.contains("after")) context.after_cursor = j.at("after").get<std::string>();
  context.limit = j.value("limit", std::size_t{0});
}

void from_json(const nlohmann::json& j, MissionCheckRequest& request) {
  if (j.contains("missionId")) request.mission_id = j.at("missionId").get<std::string>();
  if (j.contains("cwd")) request.cwd = j.at("cwd").get<std::string>();
  request.rules.allow_failed = j.value("allowFailed", false);
  request.rules.allow_blockers = j.value("allowBlockers", false);
  request.rules.allow_scope = j.value("allowScope", false);
  request.rules.allow_unfinished = j.value("allowUnfinished", false);
}

void from_json(const nlohmann::json& j, TaskChangesMethodRequest& request) {
  request.changes.task_id = j.at("taskId").get<std::string>();
  if (j.contains("cursor")) {
    request.changes.cursor = tracking::parse_position(j.at("cursor").get<std::string>(), "cursor");
  }
  request.changes.limit = j.value("limit", std::size_t{0});
}

void from_json(const nlohmann::json& j, IssueResolveRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("note")) request.note = j.at("note").get<std::string>();
}

nlohmann::json handle_mission_list(MethodContext& context, const MissionListRequest& request) {
  store::Database& db = context.services.db;
  store::PageRequest wanted = page_request(request.page, limits::kDefaultMissionListLimit);
  auto page = store::MissionRepository(db).page(request.cwd, wanted);
  std::vector<std::string> ids;
  for (const auto& row : page.rows) ids.push_back(row.id);
  auto counts = store::MissionRepository(db).counts(ids);
  nlohmann::json missions = nlohmann::json::array();
  for (const auto& row : page.rows)
    missions.push_back(tracking::mission_json(row, kCamel, &counts[row.id]));
  nlohmann::json out = nlohmann::json::object();
  put_page(out, "missions", std::move(missions), page.positions, page.more, wanted);
  return out;
}

nlohmann::json handle_mission_get(MethodContext& context, const MissionIdRequest& request) {
  store::Database& db = context.services.db;
  store::MissionRow mission = require_mission(db, request.id);
  auto counts = store::MissionRepository(db).counts(std::span(&mission.id, 1));
  auto per_phase = store::TaskRepository(db).tasks_per_phase(mission.id);
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& phase : store::MissionRepository(db).phases(mission.id)) {
    phases.push_back(tracking::phase_json(
        phase, per_phase.count(phase.id) ? per_phase.at(phase.id) : 0, kCamel));
  }
  return {{"mission", tracking::mission_json(mission, kCamel, &counts[mission.id])},
          {"phases", std::move(phases)}};
}

nlohmann::json handle_mission_tasks(MethodContext& context, const MissionPageRequest& request) {
  store::Database& db = context.services.db;
  store::MissionRow mission = require_mission(db, request.id);
  // A mission's tasks read in the order they started.
  ListParams params = request.page;
  if (!params.cursor && !params.after) params.after = 0;
  store::PageRequest wanted = page_request(params, limits::kMaxPageItems);
  auto page = store::TaskRepository(db).page(mission.id, {}, wanted);
  std::vector<std::string> ids;
  for (const auto& row : page.rows) ids.push_back(row.id);
  auto changes = tracking::load_task_changes(db, ids);
  nlohmann::json tasks = nlohmann::json::array();
  for (const auto& row : page.rows)
    tasks.push_back(tracking::task_json(row, changes[row.id], kCamel));
  nlohmann::json out = {{"missionId", mission.id}};
  put_page(out, "tasks", std::move(tasks), page.positions, page.more, wanted);
  return out;
}

nlohmann::json handle_mission_journal(MethodContext& context, const MissionPageRequest& request) {
  store::Database& db = context.services.db;
  store::MissionRow mission = require_mission(db, request.id);
  ListParams params = request.page;
  if (!params.cursor && !params.after) params.after = 0;
  store::PageRequest wanted = page_request(params, limits::kMaxPageItems);
  store::JournalRepository journal(db);
  nlohmann::json items = nlohmann::json::array();
  nlohmann::json out = {{"missionId", mission.id}, {"kind", request.kind}};
  auto put = [&](const auto& page, auto render) {
    for (const auto& row : page.rows) items.push_back(render(row, kCamel));
    put_page(out, "entries", std::move(items), page.positions, page.more, wanted);
  };
  if (request.kind == "decisions") {
    put(journal.decisions(mission.id, {}, wanted), tracking::decision_json);
  } else if (request.kind == "issues") {
    put(journal.issues(mission.id, {}, wanted), tracking::issue_json);
  } else {
    put(journal.milestones(mission.id, {}, wanted), tracking::milestone_json);
  }
  return out;
}

nlohmann::json handle_mission_context(MethodContext& context,
                                      const MissionContextRequest& request) {
  return tracking::mission_context(context.services.db, request.context, kCamel);
}

nlohmann::json handle_mission_check(MethodContext& context, const MissionCheckRequest& request) {
  store::Database& db = context.services.db;
  std::vector<std::string> ids;
  if (request.mission_id) {
    ids.push_back(*request.mission_id);
  } else {
    ids = store::MissionRepository(db).ids(request.cwd);
  }
  auto result = std::make_shared<nlohmann::json>(tracking::check_missions(db, ids, request.rules));
  if (!request.mission_id && request.cwd) (*result)["cwd"] = *request.cwd;
  // A workflow's landing is proved again against its branch as it is now
  // (git, on a pool thread): a reset or revert since the run fails it.
  auto landings =
      std::make_shared<std::vector<runs::LandingCheck>>(runs::plan_landing_checks(db, ids));
  if (landings->empty()) return *result;
  context.deferred = DeferredReply{[landings] { runs::prove_landings(*landings); },
                                   [result, landings](store::Database&, events::EventBatch&) {
                                     runs::add_landing_problems(*result, *landings);
                                     return *result;
                                   }};
  return nullptr;
}

nlohmann::json handle_mission_export(MethodContext& context, const MissionExportRequest& request) {
  store::Database& db = context.services.db;
  store::MissionRow mission = require_mission(db, request.id);
  // Without `after`, the whole record in one reply, as clients that do not
  // page expect: one too large for a reply is refused rather than cut.
  if (!request.after) return tracking::mission_record(db, mission);
  return tracking::mission_record_page(db, mission, *request.after, limits::kMaxReplyBytes);
}

nlohmann::json handle_task_changes(MethodContext& context,
                                   const TaskChangesMethodRequest& request) {
  return tracking::task_changes(context.services.db, request.changes, kCamel);
}

nlohmann::json handle_issue_resolve(MethodContext& context, const IssueResolveRequest& request) {
  store::Database& db = context.services.db;
  store::JournalRepository journal(db);
  auto issue = journal.find_issue(request.id);
  if (!issue) {
    throw MissionError(ErrorCode::not_found, "issue '" + request.id + "' does not exist",
                       "mission missions show MISSION lists its issues");
  }
  if (!issue->resolved_at) journal.resolve_issue(issue->id, unix_ms_now(), request.note);
  if (auto mission_id = journal.mission_of_issue(issue->id)) {
    tracking::Caller caller{db, "", context.events};
    tracking::after_blocker_resolved(caller, *mission_id);
  }
  return {{"issue", tracking::issue_json(*journal.find_issue(issue->id), kCamel)}};
}

}  // namespace mission::daemon
