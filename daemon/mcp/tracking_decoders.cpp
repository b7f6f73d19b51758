#include "daemon/mcp/tracking_decoders.hpp"

#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

std::optional<std::int64_t> integer(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::int64_t>();
}

std::vector<std::string> texts(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::vector<std::string>>();
}

// A document an agent gave, kept as its JSON text.
std::optional<std::string> document(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::int64_t parse_time_field(const std::string& value, const char* field) {
  if (auto ms = parse_iso8601(value)) return *ms;
  throw MissionError(ErrorCode::invalid_argument,
                     std::string(field) + " '" + value + "' is not an ISO 8601 time",
                     "use a time like 2026-11-23T10:00:00Z", {{"field", field}});
}

std::int64_t parse_position(const std::string& value, const char* field) {
  if (!value.empty() && value.size() <= 18 &&
      value.find_first_not_of("0123456789") == std::string::npos) {
    return std::stoll(value);
  }
  throw MissionError(ErrorCode::invalid_argument,
                     std::string(field) + " '" + value + "' is not one mission gave",
                     "pass the next_cursor of the previous answer unchanged", {{"field", field}});
}

ContextList context_list_named(const std::string& name) {
  if (name == "phase_summary") return ContextList::phase_summary;
  if (name == "tasks") return ContextList::tasks;
  if (name == "decisions") return ContextList::decisions;
  if (name == "milestones") return ContextList::milestones;
  if (name == "blockers") return ContextList::blockers;
  throw MissionError(ErrorCode::invalid_argument, "get_context cannot include '" + name + "'",
                     "include phase_summary, tasks, decisions, milestones or blockers",
                     {{"field", "include"}});
}

void from_json(const nlohmann::json& j, StartMissionRequest& request) {
  request.name = j.at("name").get<std::string>();
  request.objective = j.at("objective").get<std::string>();
  request.description = text(j, "description");
  request.profile = text(j, "profile");
  request.total_phases = integer(j, "total_phases");
  request.scope = text(j, "scope");
  request.constraints = text(j, "constraints");
}

void from_json(const nlohmann::json& j, StartWorkflowRequest& request) {
  request.name = j.at("name").get<std::string>();
  request.description = text(j, "description");
  if (j.contains("plan")) {
    for (const auto& step : j.at("plan")) {
      request.plan.push_back(
          {step.at("step").get<std::string>(), step.at("goal").get<std::string>()});
    }
  }
}

void from_json(const nlohmann::json& j, CompleteMissionRequest& request) {
  request.mission_id = j.at("mission_id").get<std::string>();
  request.status = j.at("status").get<MissionStatus>();
  request.summary = j.at("summary").get<std::string>();
  request.achievements = texts(j, "achievements");
  request.limitations = texts(j, "limitations");
  request.close_open_tasks = text(j, "open_tasks").value_or("refuse") == "close";
}

void from_json(const nlohmann::json& j, StartTaskRequest& request) {
  // The schema's anyOf (and targets) hold one of mission_id, workflow_id
  // and task_id (a planned task), or
  // parent_task_id alone (the subtask inherits its parent's mission).
  request.parent_task_id = text(j, "parent_task_id");
  if (auto planned = text(j, "task_id")) {
    if (request.parent_task_id) {
      throw MissionError(
          ErrorCode::invalid_argument, "start_task got task_id and parent_task_id",
          "pass task_id alone to start a planned task, or parent_task_id for a subtask",
          {{"field", "task_id"}});
    }
    request.target = {TaskTarget::Kind::planned_task, *planned};
  } else if (auto id = text(j, "mission_id")) {
    request.target = {TaskTarget::Kind::mission, *id};
  } else if (auto workflow = text(j, "workflow_id")) {
    request.target = {TaskTarget::Kind::workflow, *workflow};
  } else {
    request.target = {TaskTarget::Kind::parent_task, *request.parent_task_id};
  }
  request.name = text(j, "name").value_or("");
  request.goal = text(j, "goal").value_or("");
  request.phase = integer(j, "phase");
  request.phase_name = text(j, "phase_name");
  request.caller_type = text(j, "caller_type");
  request.agent_name = text(j, "agent_name");
  request.areas = texts(j, "areas");
}

void from_json(const nlohmann::json& j, CompleteTaskRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.status = j.at("status").get<TaskStatus>();
  const nlohmann::json& outcome = j.at("outcome");
  request.outcome.summary = outcome.at("summary").get<std::string>();
  request.outcome.manual_review_needed = outcome.value("manual_review_needed", false);
  request.outcome.manual_review_reason = text(outcome, "manual_review_reason");
  request.outcome.json = outcome.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  request.metadata_json = document(j, "metadata");
  request.phase_complete = j.value("phase_complete", false);
}

void from_json(const nlohmann::json& j, LogDecisionRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.category = j.at("category").get<std::string>();
  request.question = j.at("question").get<std::string>();
  request.has_options = j.contains("options_considered");
  request.options_considered = texts(j, "options_considered");
  request.chosen = j.at("chosen").get<std::string>();
  request.reasoning = j.at("reasoning").get<std::string>();
  request.trade_offs = text(j, "trade_offs");
}

void from_json(const nlohmann::json& j, LogIssueRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.type = j.at("type").get<std::string>();
  request.description = j.at("description").get<std::string>();
  request.resolution = j.at("resolution").get<std::string>();
  request.requires_human_review = j.value("requires_human_review", false);
}

void from_json(const nlohmann::json& j, LogMilestoneRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.message = j.at("message").get<std::string>();
  if (j.contains("progress")) request.progress = j.at("progress").get<double>();
  request.metadata_json = document(j, "metadata");
}

void from_json(const nlohmann::json& j, GetContextRequest& request) {
  request.mission_id = j.at("mission_id").get<std::string>();
  for (const auto& name : j.at("include"))
    request.include.insert(context_list_named(name.get<std::string>()));
  if (j.contains("filter")) {
    const nlohmann::json& filter = j.at("filter");
    request.filter.phase = integer(filter, "phase");
    request.filter.agent = text(filter, "agent");
    if (auto since = text(filter, "since"))
      request.filter.since_ms = parse_time_field(*since, "filter.since");
  }
  request.cursor = text(j, "cursor");
  request.after_cursor = text(j, "after_cursor");
  request.limit = static_cast<std::size_t>(integer(j, "limit").value_or(0));
}

void from_json(const nlohmann::json& j, TaskChangesRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  if (auto cursor = text(j, "cursor")) request.cursor = parse_position(*cursor, "cursor");
  request.limit = static_cast<std::size_t>(integer(j, "limit").value_or(0));
}

}  // namespace mission::daemon::tracking
