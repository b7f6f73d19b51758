#include "daemon/tracking/tracking_view.hpp"

#include "shared/bounded_json.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// Writes keys in one style; values go in as given.
class Writer {
 public:
  Writer(nlohmann::json& out, KeyStyle style) : out_(out), style_(style) {}

  void put(std::string_view snake_key, nlohmann::json value) {
    out_[key(style_, snake_key)] = std::move(value);
  }
  void put_text(std::string_view snake_key, const std::optional<std::string>& value) {
    if (value) put(snake_key, *value);
  }
  // A stored JSON document (an outcome, metadata), as it was given.
  void put_document(std::string_view snake_key, const std::optional<std::string>& value) {
    if (value) put(snake_key, parse_json_or_discarded(*value));
  }
  void put_time(std::string_view snake_key, const std::optional<std::int64_t>& value) {
    if (value) put(snake_key, format_utc_iso8601(*value));
  }

 private:
  nlohmann::json& out_;
  KeyStyle style_;
};

}  // namespace

std::int64_t duration_seconds(std::int64_t from_ms, std::int64_t to_ms) {
  return to_ms > from_ms ? (to_ms - from_ms) / 1000 : 0;
}

bool is_open_blocker(const store::IssueRow& row) {
  return row.requires_human_review && !row.resolved_at;
}

std::map<std::string, TaskChanges> load_task_changes(store::Database& db,
                                                     std::span<const std::string> task_ids) {
  store::TaskRepository tasks(db);
  std::map<std::string, TaskChanges> out;
  for (auto& [id, counts] : tasks.change_counts(task_ids)) out[id].counts = counts;
  for (auto& [id, first] : tasks.first_changes(task_ids, limits::kMaxChangedPathsShown)) {
    out[id].first = std::move(first);
  }
  return out;
}

nlohmann::json mission_json(const store::MissionRow& row, KeyStyle style,
                            const store::MissionCounts* counts) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("mission_id", row.id);
  w.put("kind", row.kind);
  w.put("name", row.name);
  w.put("status", row.status);
  w.put("current_phase", row.current_phase);
  w.put("cwd", row.cwd);
  w.put("created_at", format_utc_iso8601(row.created_at));
  w.put("updated_at", format_utc_iso8601(row.updated_at));
  w.put_text("agent_execution_id", row.execution_id);
  w.put_text("objective", row.objective);
  w.put_text("description", row.description);
  w.put_text("profile", row.profile);
  w.put_text("scope", row.scope);
  w.put_text("constraints", row.constraints);
  w.put_document("plan", row.plan);
  if (row.total_phases) w.put("total_phases", *row.total_phases);
  w.put_text("summary", row.summary);
  w.put_document("achievements", row.achievements);
  w.put_document("limitations", row.limitations);
  w.put_time("completed_at", row.completed_at);
  if (counts != nullptr) {
    nlohmann::json tasks = nlohmann::json::object();
    Writer t(tasks, style);
    t.put("total", counts->tasks);
    // Ended: neither under way nor (a plan's task) waiting to start.
    t.put("completed", counts->tasks - counts->in_progress - counts->pending);
    t.put("failed", counts->failed);
    w.put("tasks", std::move(tasks));
    w.put("open_blockers", counts->open_blockers);
  }
  return out;
}

nlohmann::json phase_json(const store::PhaseRow& row, std::int64_t tasks_count, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("phase_id", row.id);
  w.put("phase_number", row.number);
  w.put("status", row.status);
  w.put("tasks_count", tasks_count);
  w.put("started_at", format_utc_iso8601(row.created_at));
  w.put_text("name", row.name);
  w.put_time("completed_at", row.completed_at);
  if (row.completed_at)
    w.put("duration_seconds", duration_seconds(row.created_at, *row.completed_at));
  return out;
}

nlohmann::json change_json(const store::ChangeRow& change, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("change", change.change);
  w.put("path", change.path);
  w.put_text("old_path", change.old_path);
  w.put("in_scope", change.in_scope);
  return out;
}

nlohmann::json files_changed_json(const TaskChanges& changes, KeyStyle style) {
  nlohmann::json by_kind = {{"added", nlohmann::json::array()},
                            {"modified", nlohmann::json::array()},
                            {"deleted", nlohmann::json::array()},
                            {"renamed", nlohmann::json::array()}};
  for (const auto& change : changes.first) {
    if (change.change == "renamed") {
      by_kind["renamed"].push_back({{"from", change.old_path.value_or("")}, {"to", change.path}});
    } else if (by_kind.contains(change.change)) {
      by_kind[change.change].push_back(change.path);
    }
  }
  const store::ChangeCounts& c = changes.counts;
  const auto shown = static_cast<std::int64_t>(changes.first.size());
  Writer w(by_kind, style);
  w.put("counts", {{"added", c.added},
                   {"modified", c.modified},
                   {"deleted", c.deleted},
                   {"renamed", c.renamed}});
  w.put("total", c.total());
  w.put("truncated", shown < c.total() + c.renamed);
  return by_kind;
}

nlohmann::json task_json(const store::TaskRow& row, const TaskChanges& changes, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("task_id", row.id);
  w.put("mission_id", row.mission_id);
  w.put("name", row.name);
  w.put("goal", row.goal);
  w.put("status", row.status);
  w.put("areas", parse_json_or_discarded(row.areas));
  w.put("snapshot_type", row.snapshot_type);
  w.put("snapshot_id", row.snapshot_id);
  w.put("started_at", format_utc_iso8601(row.started_at));
  if (row.phase_number) w.put("phase_number", *row.phase_number);
  w.put_text("parent_task_id", row.parent_task_id);
  w.put_text("agent_execution_id", row.execution_id);
  w.put_text("caller_type", row.caller_type);
  w.put_text("agent_name", row.agent_name);
  w.put_document("outcome", row.outcome);
  w.put_document("metadata", row.metadata);
  if (row.completed_at) {
    w.put("files_changed", files_changed_json(changes, style));
    if (row.verification) {
      nlohmann::json stored = parse_json_or_discarded(*row.verification);
      if (stored.is_object()) {
        nlohmann::json verification = nlohmann::json::object();
        Writer v(verification, style);
        for (const auto& [name, value] : stored.items()) v.put(name, value);
        w.put("verification", std::move(verification));
      }
    }
  }
  w.put_time("completed_at", row.completed_at);
  // A planned task a run failed before any agent started it has no start.
  if (row.completed_at && row.started_at > 0)
    w.put("duration_seconds", duration_seconds(row.started_at, *row.completed_at));
  return out;
}

nlohmann::json decision_json(const store::DecisionRow& row, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("id", row.id);
  w.put("task_id", row.task_id);
  w.put("category", row.category);
  w.put("question", row.question);
  w.put("chosen", row.chosen);
  w.put("reasoning", row.reasoning);
  w.put("created_at", format_utc_iso8601(row.created_at));
  w.put_document("options_considered", row.options_considered);
  w.put_text("trade_offs", row.trade_offs);
  w.put_text("agent_execution_id", row.execution_id);
  return out;
}

nlohmann::json issue_json(const store::IssueRow& row, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("id", row.id);
  w.put("task_id", row.task_id);
  w.put("type", row.type);
  w.put("description", row.description);
  w.put("resolution", row.resolution);
  w.put("requires_human_review", row.requires_human_review);
  w.put("created_at", format_utc_iso8601(row.created_at));
  w.put_time("resolved_at", row.resolved_at);
  w.put_text("resolved_note", row.resolved_note);
  w.put_text("agent_execution_id", row.execution_id);
  return out;
}

nlohmann::json milestone_json(const store::MilestoneRow& row, KeyStyle style) {
  nlohmann::json out = nlohmann::json::object();
  Writer w(out, style);
  w.put("id", row.id);
  w.put("task_id", row.task_id);
  w.put("message", row.message);
  w.put("created_at", format_utc_iso8601(row.created_at));
  if (row.progress) w.put("progress", *row.progress);
  w.put_document("metadata", row.metadata);
  w.put_text("agent_execution_id", row.execution_id);
  return out;
}

}  // namespace mission::daemon::tracking
