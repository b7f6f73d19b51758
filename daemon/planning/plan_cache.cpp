#include "daemon/planning/plan_cache.hpp"

#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::planning {
namespace {

std::vector<std::string> string_list(const std::string& json_text) {
  std::vector<std::string> out;
  if (json_text.empty() || json_text == "[]") return out;
  nlohmann::json parsed = nlohmann::json::parse(json_text, nullptr, false);
  if (!parsed.is_array()) return out;
  for (const auto& item : parsed) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

std::optional<std::string> outcome_summary(const std::optional<std::string>& outcome) {
  if (!outcome) return std::nullopt;
  nlohmann::json parsed = nlohmann::json::parse(*outcome, nullptr, false);
  if (parsed.is_object() && parsed.contains("summary") && parsed.at("summary").is_string()) {
    return parsed.at("summary").get<std::string>();
  }
  if (parsed.is_string()) return parsed.get<std::string>();
  return *outcome;
}

PlanState load_plan_state(store::Database& db, const std::string& workflow_id) {
  PlanState state;
  state.workflow_id = workflow_id;
  store::PlanRepository plans(db);
  if (auto mission = store::MissionRepository(db).find(workflow_id))
    state.workflow_status = mission->status;
  if (auto plan = plans.workflow_plan(workflow_id))
    state.max_parallel_tasks = plan->max_parallel_tasks;
  for (auto& row : plans.planned_tasks(workflow_id)) {
    PlanTask task;
    task.id = std::move(row.id);
    task.name = std::move(row.name);
    task.description = std::move(row.description);
    task.status = row.status;
    task.sequence = row.sequence;
    task.parallel_group = std::move(row.parallel_group);
    task.files = string_list(row.files_likely_affected);
    task.outcome_summary = outcome_summary(row.outcome);
    task.started_at = row.started_at;
    task.completed_at = row.completed_at;
    task.claimed_by = std::move(row.claimed_by);
    state.tasks.push_back(std::move(task));
  }
  state.index();
  std::vector<std::vector<Node>> depends_on(state.tasks.size());
  std::vector<std::int64_t> sequences;
  sequences.reserve(state.tasks.size());
  for (const auto& task : state.tasks) sequences.push_back(task.sequence);
  for (const auto& edge : plans.dependencies(workflow_id)) {
    auto from = state.node_of(edge.task_id);
    auto to = state.node_of(edge.depends_on_id);
    if (from && to) depends_on[*from].push_back(*to);
  }
  state.dag = Dag(std::move(sequences), std::move(depends_on));
  return state;
}

bool PlanCache::refresh(store::Database& db, Entry& entry) {
  store::PlanRepository plans(db);
  std::vector<store::TaskProgressRow> rows = plans.planned_progress(entry.workflow_id);
  auto mission = store::MissionRepository(db).find(entry.workflow_id);
  auto plan = plans.workflow_plan(entry.workflow_id);
  if (!mission || !plan || rows.size() != entry.state->tasks.size()) return false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].id != entry.state->tasks[i].id) return false;
  }
  // A caller still holding the old state keeps it as it was.
  if (entry.state.use_count() > 1) entry.state = std::make_shared<PlanState>(*entry.state);
  PlanState& state = *entry.state;
  state.workflow_status = mission->status;
  state.max_parallel_tasks = plan->max_parallel_tasks;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    PlanTask& task = state.tasks[i];
    const store::TaskProgressRow& row = rows[i];
    task.claimed_by = row.claimed_by;
    if (task.status == row.status && task.started_at == row.started_at &&
        task.completed_at == row.completed_at) {
      continue;
    }
    task.status = row.status;
    task.started_at = row.started_at;
    task.completed_at = row.completed_at;
    auto stored = plans.task(task.id);
    task.outcome_summary = stored ? outcome_summary(stored->outcome) : std::nullopt;
  }
  return true;
}

std::shared_ptr<const PlanState> PlanCache::peek(const std::string& workflow_id) const {
  for (const auto& entry : entries_) {
    if (entry.workflow_id == workflow_id) return entry.state;
  }
  return nullptr;
}

std::shared_ptr<const PlanState> PlanCache::get(store::Database& db,
                                                const std::string& workflow_id) {
  const std::int64_t revision = store::PlanRepository(db).plan_revision(workflow_id);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->workflow_id != workflow_id) continue;
    entries_.splice(entries_.begin(), entries_, it);
    Entry& entry = entries_.front();
    if (entry.revision == revision) return entry.state;
    if (refresh(db, entry)) {
      ++refreshes_;
      entry.revision = revision;
      return entry.state;
    }
    entries_.pop_front();
    break;
  }
  ++loads_;
  auto state = std::make_shared<PlanState>(load_plan_state(db, workflow_id));
  entries_.push_front({workflow_id, revision, state});
  if (entries_.size() > limits::kMaxCachedPlans) entries_.pop_back();
  return state;
}

std::shared_ptr<const PlanState> plan_state(PlanCache* cache, store::Database& db,
                                            const std::string& workflow_id) {
  if (cache != nullptr) return cache->get(db, workflow_id);
  return std::make_shared<const PlanState>(load_plan_state(db, workflow_id));
}

}  // namespace mission::daemon::planning
