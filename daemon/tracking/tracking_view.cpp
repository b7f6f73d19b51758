#include "daemon/tracking/tracking_view.hpp"

#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

void put_text(nlohmann::json& out, const char* key, const std::optional<std::string>& value) {
  if (value) out[key] = *value;
}

void put_json(nlohmann::json& out, const char* key, const std::optional<std::string>& value) {
  if (value) out[key] = nlohmann::json::parse(*value, nullptr, false);
}

void put_time(nlohmann::json& out, const char* key, const std::optional<std::int64_t>& value) {
  if (value) out[key] = format_utc_iso8601(*value);
}

}  // namespace

std::int64_t duration_seconds(std::int64_t from_ms, std::int64_t to_ms) {
  return to_ms > from_ms ? (to_ms - from_ms) / 1000 : 0;
}

bool is_open_blocker(const store::IssueRow& row) {
  return row.requires_human_review && !row.resolved_at;
}

nlohmann::json mission_json(const store::MissionRow& row) {
  nlohmann::json out = {{"mission_id", row.id}, {"kind", row.kind}, {"name", row.name},
                        {"status", row.status}, {"current_phase", row.current_phase},
                        {"cwd", row.cwd}, {"created_at", format_utc_iso8601(row.created_at)},
                        {"updated_at", format_utc_iso8601(row.updated_at)}};
  put_text(out, "agent_execution_id", row.execution_id);
  put_text(out, "objective", row.objective);
  put_text(out, "description", row.description);
  put_text(out, "profile", row.profile);
  put_text(out, "scope", row.scope);
  put_text(out, "constraints", row.constraints);
  put_json(out, "plan", row.plan);
  if (row.total_phases) out["total_phases"] = *row.total_phases;
  put_text(out, "summary", row.summary);
  put_json(out, "achievements", row.achievements);
  put_json(out, "limitations", row.limitations);
  put_time(out, "completed_at", row.completed_at);
  return out;
}

nlohmann::json phase_json(const store::PhaseRow& row, std::size_t tasks_count) {
  nlohmann::json out = {{"phase_id", row.id},
                        {"phase_number", row.number},
                        {"status", row.status},
                        {"tasks_count", tasks_count},
                        {"started_at", format_utc_iso8601(row.created_at)}};
  put_text(out, "name", row.name);
  put_time(out, "completed_at", row.completed_at);
  if (row.completed_at) out["duration_seconds"] = duration_seconds(row.created_at, *row.completed_at);
  return out;
}

nlohmann::json task_json(const store::TaskRow& row) {
  nlohmann::json out = {{"task_id", row.id},
                        {"mission_id", row.mission_id},
                        {"name", row.name},
                        {"goal", row.goal},
                        {"status", row.status},
                        {"areas", nlohmann::json::parse(row.areas, nullptr, false)},
                        {"snapshot_type", row.snapshot_type},
                        {"snapshot_id", row.snapshot_id},
                        {"started_at", format_utc_iso8601(row.started_at)}};
  if (row.phase_number) out["phase_number"] = *row.phase_number;
  put_text(out, "parent_task_id", row.parent_task_id);
  put_text(out, "agent_execution_id", row.execution_id);
  put_text(out, "caller_type", row.caller_type);
  put_text(out, "agent_name", row.agent_name);
  put_json(out, "outcome", row.outcome);
  put_json(out, "metadata", row.metadata);
  put_json(out, "files_changed", row.files_changed);
  put_json(out, "verification", row.verification);
  put_time(out, "completed_at", row.completed_at);
  if (row.completed_at) out["duration_seconds"] = duration_seconds(row.started_at, *row.completed_at);
  return out;
}

nlohmann::json decision_json(const store::DecisionRow& row) {
  nlohmann::json out = {{"id", row.id},           {"task_id", row.task_id},
                        {"category", row.category}, {"question", row.question},
                        {"chosen", row.chosen},   {"reasoning", row.reasoning},
                        {"created_at", format_utc_iso8601(row.created_at)}};
  put_json(out, "options_considered", row.options_considered);
  put_text(out, "trade_offs", row.trade_offs);
  put_text(out, "agent_execution_id", row.execution_id);
  return out;
}

nlohmann::json issue_json(const store::IssueRow& row) {
  nlohmann::json out = {{"id", row.id},
                        {"task_id", row.task_id},
                        {"type", row.type},
                        {"description", row.description},
                        {"resolution", row.resolution},
                        {"requires_human_review", row.requires_human_review},
                        {"created_at", format_utc_iso8601(row.created_at)}};
  put_time(out, "resolved_at", row.resolved_at);
  put_text(out, "resolved_note", row.resolved_note);
  put_text(out, "agent_execution_id", row.execution_id);
  return out;
}

nlohmann::json milestone_json(const store::MilestoneRow& row) {
  nlohmann::json out = {{"id", row.id},
                        {"task_id", row.task_id},
                        {"message", row.message},
                        {"created_at", format_utc_iso8601(row.created_at)}};
  if (row.progress) out["progress"] = *row.progress;
  put_json(out, "metadata", row.metadata);
  put_text(out, "agent_execution_id", row.execution_id);
  return out;
}

}  // namespace mission::daemon::tracking
