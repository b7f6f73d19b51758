// The planning tools' readers: workflows, tasks, checkpoints, context,
// summaries, the orchestration queries, repositories and templates.

#include <algorithm>
#include <filesystem>

#include "daemon/planning/context_budget.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/templates.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::planning {
namespace {

nlohmann::json parsed(const std::optional<std::string>& text, nlohmann::json fallback = nullptr) {
  if (!text) return fallback;
  nlohmann::json value = nlohmann::json::parse(*text, nullptr, false);
  return value.is_discarded() ? nlohmann::json(*text) : value;
}

nlohmann::json time_or_null(const std::optional<std::int64_t>& ms) {
  return ms ? nlohmann::json(format_utc_iso8601(*ms)) : nlohmann::json();
}

// Paging shared by the lists: a cursor, or the seed's offset skipped over.
store::PageRequest page_request(const ListPosition& position, std::size_t default_limit) {
  store::PageRequest request;
  request.cursor = position.cursor;
  request.limit =
      std::min(position.limit == 0 ? default_limit : position.limit, limits::kMaxPageItems) +
      position.offset;
  return request;
}

template <class Row>
void drop_offset(store::Page<Row>& page, std::size_t offset) {
  const std::size_t cut = std::min(offset, page.rows.size());
  page.rows.erase(page.rows.begin(), page.rows.begin() + static_cast<std::ptrdiff_t>(cut));
  page.positions.erase(page.positions.begin(),
                       page.positions.begin() + static_cast<std::ptrdiff_t>(cut));
}

template <class Row>
void add_cursor(nlohmann::json& out, const store::Page<Row>& page, KeyStyle style) {
  if (page.more && !page.positions.empty())
    out[key(style, "next_cursor")] = std::to_string(page.positions.back());
}

nlohmann::json workflow_json(store::Database& db, const store::MissionRow& row, KeyStyle style) {
  auto plan = store::PlanRepository(db).workflow_plan(row.id);
  nlohmann::json out = {{key(style, "id"), row.id},
                        {key(style, "name"), row.name},
                        {key(style, "status"), seed_workflow_status(row.status)},
                        {key(style, "source_type"),
                         plan->source_type ? nlohmann::json(*plan->source_type) : nlohmann::json()},
                        {key(style, "source_ref"),
                         plan->source_ref ? nlohmann::json(*plan->source_ref) : nlohmann::json()},
                        {key(style, "max_parallel_tasks"), plan->max_parallel_tasks},
                        {key(style, "auto_create_workspaces"), plan->auto_create_workspaces},
                        {key(style, "cwd"), row.cwd},
                        {key(style, "owner"),
                         row.execution_id ? nlohmann::json(*row.execution_id) : nlohmann::json()},
                        {key(style, "created_at"), format_utc_iso8601(row.created_at)},
                        {key(style, "updated_at"), format_utc_iso8601(row.updated_at)},
                        {key(style, "completed_at"), time_or_null(row.completed_at)}};
  if (row.status == MissionStatus::blocked) out[key(style, "blocked")] = true;
  if (row.status == MissionStatus::partial) out[key(style, "partial")] = true;
  if (plan->status_reason) out[key(style, "status_reason")] = *plan->status_reason;
  if (plan->repository_id) {
    if (auto repository = store::PlanRepository(db).repository(*plan->repository_id)) {
      out[key(style, "repository_path")] = repository->path;
    }
  }
  if (plan->plan_summary) {
    out[key(style, "plan")] = {
        {key(style, "summary"), *plan->plan_summary},
        {key(style, "approach"), plan->plan_approach.value_or("")},
        {key(style, "risks"), parsed(plan->plan_risks, nlohmann::json::array())},
        {key(style, "assumptions"), parsed(plan->plan_assumptions, nlohmann::json::array())}};
  }
  return out;
}

nlohmann::json task_json(const store::PlannedTaskRow& row, bool ready, bool summary_only,
                         KeyStyle style) {
  nlohmann::json out = {
      {key(style, "id"), row.id},
      {key(style, "workflow_id"), row.mission_id},
      {key(style, "name"), row.name},
      {key(style, "status"), seed_task_status(row.status, ready)},
      {key(style, "sequence"), row.sequence},
      {key(style, "parallel_group"),
       row.parallel_group ? nlohmann::json(*row.parallel_group) : nlohmann::json()}};
  if (row.status == TaskStatus::partial_success) out[key(style, "partial")] = true;
  if (summary_only) {
    if (row.outcome)
      out[key(style, "outcome")] = parsed(row.outcome).value("summary", nlohmann::json());
    return out;
  }
  out[key(style, "description")] = row.description;
  out[key(style, "estimated_complexity")] =
      row.complexity ? nlohmann::json(*row.complexity) : nlohmann::json();
  out[key(style, "files_likely_affected")] =
      parsed(row.files_likely_affected, nlohmann::json::array());
  out[key(style, "acceptance_criteria")] = parsed(row.acceptance_criteria, nlohmann::json::array());
  out[key(style, "plan")] = parsed(row.task_plan);
  out[key(style, "context")] = parsed(row.task_context);
  out[key(style, "outcome")] = parsed(row.outcome);
  out[key(style, "error")] = row.error ? nlohmann::json(*row.error) : nlohmann::json();
  out[key(style, "started_at")] = time_or_null(row.started_at);
  out[key(style, "completed_at")] = time_or_null(row.completed_at);
  out[key(style, "owner")] =
      row.execution_id ? nlohmann::json(*row.execution_id) : nlohmann::json();
  return out;
}

nlohmann::json checkpoint_json(const store::CheckpointRow& row, KeyStyle style) {
  nlohmann::json out = {{key(style, "id"), row.id},
                        {key(style, "task_id"), row.task_id},
                        {key(style, "sequence"), row.seq},
                        {key(style, "type"), row.type},
                        {key(style, "summary"), row.summary},
                        {key(style, "created_at"), format_utc_iso8601(row.created_at)}};
  if (row.detail) out[key(style, "detail")] = parsed(row.detail);
  if (row.files_changed) out[key(style, "files_changed")] = parsed(row.files_changed);
  return out;
}

std::vector<MissionStatus> statuses_named(const std::vector<std::string>& words) {
  std::vector<MissionStatus> out;
  for (const auto& word : words) {
    if (word == "in_progress") {
      out.push_back(MissionStatus::in_progress);
      out.push_back(MissionStatus::blocked);
    } else if (word == "completed") {
      out.push_back(MissionStatus::completed);
      out.push_back(MissionStatus::partial);
    } else if (word == "ready") {
      out.push_back(MissionStatus::ready);
      out.push_back(MissionStatus::pending);
    } else if (auto status = parse_name<MissionStatus>(word)) {
      out.push_back(*status);
    } else {
      throw MissionError(ErrorCode::invalid_argument, "'" + word + "' is not a workflow status",
                         "use planning, ready, in_progress, paused, completed, failed or cancelled",
                         {{"field", "status"}});
    }
  }
  return out;
}

std::string outcome_text(const PlanTask& task, bool full, const std::optional<std::string>& raw) {
  if (full && raw) return *raw;
  std::string text =
      task.outcome_summary.value_or(std::string(seed_task_status(task.status, true)));
  if (text.size() > limits::kOutcomeSummaryBytes)
    text = utf8_prefix(text, limits::kOutcomeSummaryBytes) + "…";
  return text;
}

}  // namespace

nlohmann::json workflow_get(store::Database& db, PlanCache* cache,
                            const WorkflowGetRequest& request, KeyStyle style) {
  store::MissionRow workflow = require_workflow(db, request.id, "id");
  nlohmann::json out = workflow_json(db, workflow, style);
  auto plan = store::PlanRepository(db).workflow_plan(workflow.id);
  out[key(style, "source_content")] = plan->source_content.value_or("");
  auto state = plan_state(cache, db, workflow.id);
  out[key(style, "task_count")] = state->tasks.size();
  if (request.include_tasks) {
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto& row : store::PlanRepository(db).planned_tasks(workflow.id)) {
      if (tasks.size() == limits::kMaxPageItems) {
        out[key(style, "tasks_truncated")] = true;
        break;
      }
      auto node = state->node_of(row.id);
      const bool ready = node && prerequisites_done(*state, *node);
      tasks.push_back(task_json(row, ready, request.include_task_summaries, style));
    }
    out[key(style, "tasks")] = std::move(tasks);
  }
  return out;
}

nlohmann::json workflow_list(store::Database& db, const WorkflowListRequest& request,
                             KeyStyle style) {
  std::optional<std::string> repository_id;
  if (request.repository_path) {
    auto repository = store::PlanRepository(db).repository_by_path(
        std::filesystem::path(*request.repository_path).lexically_normal().string());
    if (!repository) {
      return {{key(style, "workflows"), nlohmann::json::array()}, {key(style, "total"), 0}};
    }
    repository_id = repository->id;
  }
  std::vector<MissionStatus> statuses = statuses_named(request.statuses);
  store::PlanRepository plans(db);
  auto page = plans.workflow_ids(repository_id, statuses, page_request(request.position, 20));
  drop_offset(page, request.position.offset);
  nlohmann::json workflows = nlohmann::json::array();
  auto counts = store::MissionRepository(db).counts(page.rows);
  for (const auto& id : page.rows) {
    auto row = store::MissionRepository(db).find(id);
    nlohmann::json entry = workflow_json(db, *row, style);
    entry[key(style, "task_count")] = counts[id].tasks;
    entry[key(style, "in_progress")] = counts[id].in_progress;
    workflows.push_back(std::move(entry));
  }
  nlohmann::json out = {{key(style, "workflows"), std::move(workflows)},
                        {key(style, "total"), plans.workflow_count(repository_id, statuses)}};
  add_cursor(out, page, style);
  return out;
}

nlohmann::json task_get(store::Database& db, PlanCache* cache, const TaskGetRequest& request,
                        KeyStyle style) {
  store::PlannedTaskRow row = require_planned_task(db, request.id, "id");
  bool ready = true;
  nlohmann::json depends_on = nlohmann::json::array();
  if (row.plan_order) {
    auto state = plan_state(cache, db, row.mission_id);
    if (auto node = state->node_of(row.id)) {
      ready = prerequisites_done(*state, *node);
      for (Node prerequisite : state->dag.prerequisites(*node))
        depends_on.push_back(state->tasks[prerequisite].name);
    }
  }
  nlohmann::json out = task_json(row, ready, false, style);
  out[key(style, "depends_on")] = std::move(depends_on);
  if (request.include_checkpoints) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& checkpoint : store::PlanRepository(db).checkpoints(
             row.id, {}, std::nullopt, request.checkpoint_limit.value_or(limits::kMaxPageItems))) {
      list.push_back(checkpoint_json(checkpoint, style));
    }
    out[key(style, "checkpoints")] = std::move(list);
  }
  return out;
}

nlohmann::json checkpoint_list(store::Database& db, const CheckpointListRequest& request,
                               KeyStyle style) {
  store::TaskRow task = require_task(db, request.task_id);
  const std::size_t limit =
      std::min(request.limit.value_or(limits::kMaxPageItems), limits::kMaxPageItems);
  // Oldest first after since_sequence; one more tells whether more remain.
  auto s = db.prepare(
      "SELECT seq FROM checkpoints WHERE task_id = ?1 AND seq > ?2 AND "
      "(?3 = '[]' OR type IN (SELECT value FROM json_each(?3))) ORDER BY seq LIMIT ?4");
  nlohmann::json names = nlohmann::json::array();
  for (CheckpointType type : request.types) names.push_back(std::string(name_of(type)));
  s.bind(1, task.id).bind(2, request.since_sequence.value_or(0)).bind(3, names.dump());
  s.bind(4, static_cast<std::int64_t>(limit) + 1);
  std::vector<std::int64_t> seqs;
  while (s.step()) seqs.push_back(s.integer(0));
  const bool more = seqs.size() > limit;
  if (more) seqs.pop_back();
  nlohmann::json list = nlohmann::json::array();
  if (!seqs.empty()) {
    for (const auto& row : store::PlanRepository(db).checkpoints(
             task.id, request.types, request.since_sequence.value_or(0), std::nullopt)) {
      if (row.seq > seqs.back()) break;
      list.push_back(checkpoint_json(row, style));
    }
  }
  nlohmann::json out = {{key(style, "task_id"), task.id},
                        {key(style, "checkpoints"), std::move(list)}};
  if (more) out[key(style, "next_since_sequence")] = seqs.back();
  return out;
}

nlohmann::json task_load_context(store::Database& db, PlanCache* cache,
                                 const TaskLoadContextRequest& request) {
  store::PlannedTaskRow task = require_planned_task(db, request.task_id, "task_id");
  store::MissionRow workflow = require_mission(db, task.mission_id, "workflow_id");
  auto plan = store::PlanRepository(db).workflow_plan(workflow.id);
  auto state = plan_state(cache, db, workflow.id);
  const ContextInclude& include = request.include;
  const std::size_t max_tokens =
      std::clamp(request.max_tokens == 0 ? limits::kDefaultContextTokens : request.max_tokens,
                 limits::kMinContextTokens, limits::kMaxContextTokens);
  ContextParts parts;
  parts.workflow = {{"id", workflow.id},
                    {"name", workflow.name},
                    {"source_type", plan->source_type.value_or("custom")},
                    {"status", seed_workflow_status(workflow.status)},
                    {"max_parallel_tasks", plan->max_parallel_tasks}};
  if (include.workflow_plan) {
    parts.workflow["plan_summary"] = plan->plan_summary.value_or("");
    parts.workflow["plan_approach"] = plan->plan_approach.value_or("");
  }
  if (include.workflow_summary) parts.source_text = plan->source_content.value_or("");
  auto node = state->node_of(task.id);
  const bool ready = !node || prerequisites_done(*state, *node);
  parts.current_task = {
      {"id", task.id},
      {"name", task.name},
      {"description", task.description},
      {"plan", parsed(task.task_plan, nlohmann::json::object())},
      {"context", parsed(task.task_context, nlohmann::json::object())},
      {"status", seed_task_status(task.status, ready)},
      {"files_likely_affected", parsed(task.files_likely_affected, nlohmann::json::array())}};
  std::optional<std::size_t> recent =
      include.all_checkpoints ? std::nullopt
                              : std::optional<std::size_t>(include.recent_checkpoints.value_or(
                                    limits::kDefaultRecentCheckpoints));
  if (!recent || *recent > 0) {
    for (const auto& checkpoint :
         store::PlanRepository(db).checkpoints(task.id, {}, std::nullopt, recent)) {
      parts.checkpoints.push_back(checkpoint_json(checkpoint, KeyStyle::snake));
    }
  }
  parts.include_prior = include.prior_task_outcomes;
  parts.include_siblings = include.sibling_status;
  parts.include_dependency_outcomes = include.dependency_outcomes;
  if (node) {
    // Prior tasks: the DAG ancestors, newest ended first (then latest in plan).
    if (include.prior_task_outcomes) {
      std::vector<Node> ancestors = state->dag.ancestors(*node);
      std::stable_sort(ancestors.begin(), ancestors.end(), [&](Node a, Node b) {
        const auto& ta = state->tasks[a];
        const auto& tb = state->tasks[b];
        const std::int64_t ea = ta.completed_at.value_or(-1);
        const std::int64_t eb = tb.completed_at.value_or(-1);
        if (ea != eb) return ea > eb;
        return a > b;
      });
      for (Node ancestor : ancestors) {
        const PlanTask& prior = state->tasks[ancestor];
        std::optional<std::string> raw;
        if (include.prior_task_full) {
          if (auto row = store::PlanRepository(db).task(prior.id)) raw = row->outcome;
        }
        parts.prior_tasks.push_back({{"id", prior.id},
                                     {"name", prior.name},
                                     {"outcome", outcome_text(prior, include.prior_task_full, raw)},
                                     {"status", seed_task_status(prior.status, true)}});
        // More than a budget can hold is never looked at.
        if (parts.prior_tasks.size() * 16 > max_tokens) break;
      }
    }
    if (include.dependency_outcomes) {
      for (Node prerequisite : state->dag.prerequisites(*node)) {
        const PlanTask& dependency = state->tasks[prerequisite];
        if (!is_done(dependency.status)) continue;
        parts.dependency_outcomes.push_back(
            {{"task_id", dependency.id},
             {"task_name", dependency.name},
             {"outcome", outcome_text(dependency, false, std::nullopt)}});
      }
    }
    if (include.sibling_status) {
      const PlanTask& self = state->tasks[*node];
      for (Node other = 0; other < state->tasks.size(); ++other) {
        const PlanTask& sibling = state->tasks[other];
        if (other == *node) continue;
        const bool same_group =
            self.parallel_group && sibling.parallel_group == self.parallel_group;
        if (!same_group && sibling.sequence != self.sequence) continue;
        nlohmann::json entry = {
            {"id", sibling.id},
            {"name", sibling.name},
            {"status", seed_task_status(sibling.status, prerequisites_done(*state, other))}};
        if (sibling.outcome_summary)
          entry["brief_summary"] = outcome_text(sibling, false, std::nullopt);
        parts.siblings.push_back(std::move(entry));
        if (parts.siblings.size() == limits::kMaxContextItems) break;
      }
    }
  }
  nlohmann::json out = fit_context(std::move(parts), max_tokens);
  out["max_tokens"] = max_tokens;
  // The budget holds for the answer as sent: re-estimated with max_tokens.
  out["token_estimate"] = estimate_tokens(out);
  return out;
}

nlohmann::json workflow_get_summary(store::Database& db, PlanCache* cache,
                                    const WorkflowSummaryRequest& request) {
  store::MissionRow workflow = require_workflow(db, request.id, "id");
  auto plan = store::PlanRepository(db).workflow_plan(workflow.id);
  auto state = plan_state(cache, db, workflow.id);
  nlohmann::json progress_json = progress(*state, KeyStyle::snake);
  nlohmann::json next = next_tasks(*state, {true, 5}, KeyStyle::snake);
  nlohmann::json summary;
  if (request.markdown) {
    std::string md = "# " + workflow.name + "\n\n";
    md += "Status: " + std::string(seed_workflow_status(workflow.status)) + " · " +
          std::to_string(progress_json["by_status"]["completed"].get<std::int64_t>()) + "/" +
          std::to_string(state->tasks.size()) + " tasks completed · max parallel " +
          std::to_string(plan->max_parallel_tasks) + "\n\n";
    if (plan->plan_summary) md += "## Plan\n\n" + *plan->plan_summary + "\n\n";
    if (plan->plan_approach && !plan->plan_approach->empty())
      md += "Approach: " + *plan->plan_approach + "\n\n";
    md += "## Tasks\n\n";
    std::size_t shown = 0;
    for (const auto& task : state->tasks) {
      if (shown++ == limits::kMaxContextItems) {
        md += "- … " + std::to_string(state->tasks.size() - limits::kMaxContextItems) + " more\n";
        break;
      }
      const char* box =
          is_done(task.status) ? "[x]" : (task.status == TaskStatus::in_progress ? "[~]" : "[ ]");
      md += std::string("- ") + box + " " + task.name + " (" +
            std::string(seed_task_status(task.status,
                                         prerequisites_done(*state, state->by_id.at(task.id)))) +
            ")\n";
    }
    if (!next["tasks"].empty()) {
      md += "\n## Next\n\n";
      for (const auto& entry : next["tasks"]) md += "- " + entry["name"].get<std::string>() + "\n";
    }
    summary = md;
  } else {
    summary = {{"id", workflow.id},
               {"name", workflow.name},
               {"status", seed_workflow_status(workflow.status)},
               {"plan_summary", plan->plan_summary.value_or("")},
               {"total_tasks", state->tasks.size()},
               {"by_status", progress_json["by_status"]},
               {"current_sequence", progress_json["current_sequence"]},
               {"blocked_count", progress_json["blocked_count"]},
               {"next", next["tasks"]}};
    for (auto& entry : summary["next"]) {
      entry = {{"id", entry["id"]}, {"name", entry["name"]}};
    }
  }
  const std::size_t tokens = summary.is_string()
                                 ? estimate_tokens(summary.get_ref<const std::string&>())
                                 : estimate_tokens(summary);
  return {{"summary", std::move(summary)},
          {"format", request.markdown ? "markdown" : "json"},
          {"token_estimate", tokens}};
}

nlohmann::json workflow_next_tasks(store::Database& db, PlanCache* cache,
                                   const NextTasksRequest& request, KeyStyle style) {
  require_workflow(db, request.workflow_id, "workflow_id");
  auto state = plan_state(cache, db, request.workflow_id);
  return next_tasks(*state, {request.include_failed, request.limit}, style);
}

std::vector<NextReadyTask> next_ready_tasks(store::Database& db, PlanCache* cache,
                                            const std::string& workflow_id, std::size_t limit,
                                            bool include_failed) {
  require_workflow(db, workflow_id, "workflow_id");
  auto state = plan_state(cache, db, workflow_id);
  ReadyRanking ranking = rank_ready(*state, include_failed);
  std::vector<NextReadyTask> out;
  for (const ReadyTask& ready : ranking.ready) {
    if (limit != 0 && out.size() == limit) break;
    out.push_back({state->tasks[ready.node].id, ready.critical_path_length, ready.recommended});
  }
  return out;
}

nlohmann::json workflow_progress(store::Database& db, PlanCache* cache,
                                 const WorkflowIdRequest& request, KeyStyle style) {
  require_workflow(db, request.workflow_id, "workflow_id");
  auto state = plan_state(cache, db, request.workflow_id);
  return progress(*state, style);
}

nlohmann::json task_check_dependencies(store::Database& db, PlanCache* cache,
                                       const TaskIdRequest& request, KeyStyle style) {
  store::PlannedTaskRow task = require_planned_task(db, request.task_id, "task_id");
  auto state = plan_state(cache, db, task.mission_id);
  auto node = state->node_of(task.id);
  if (!node) {
    return {{key(style, "task_id"), task.id},
            {key(style, "satisfied"), true},
            {key(style, "pending"), nlohmann::json::array()},
            {key(style, "completed"), nlohmann::json::array()}};
  }
  return check_dependencies(*state, *node, style);
}

nlohmann::json repository_list(store::Database& db, const RepositoryListRequest& request,
                               KeyStyle style) {
  auto page = store::PlanRepository(db).repositories(page_request(request.position, 50));
  drop_offset(page, request.position.offset);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : page.rows) list.push_back(repository_json(row, style));
  nlohmann::json out = {{key(style, "repositories"), std::move(list)}};
  add_cursor(out, page, style);
  return out;
}

nlohmann::json repository_get(store::Database& db, const RepositoryGetRequest& request,
                              KeyStyle style) {
  const std::string normal = std::filesystem::path(request.path).lexically_normal().string();
  std::string trimmed = normal;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  auto row = store::PlanRepository(db).repository_by_path(trimmed);
  if (!row) return {{key(style, "repository"), nullptr}};
  nlohmann::json out = repository_json(*row, style);
  std::vector<MissionStatus> none;
  out[key(style, "workflow_count")] = store::PlanRepository(db).workflow_count(row->id, none);
  return {{key(style, "repository"), std::move(out)}};
}

nlohmann::json template_list(store::Database& db, const TemplateListRequest& request,
                             KeyStyle style) {
  auto page = store::PlanRepository(db).templates(page_request(request.position, 50));
  drop_offset(page, request.position.offset);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : page.rows) {
    TemplateDefinition definition = definition_from_json(nlohmann::json::parse(row.definition));
    nlohmann::json variables = nlohmann::json::array();
    for (const auto& variable : definition.variables) {
      nlohmann::json entry = {{key(style, "name"), variable.name},
                              {key(style, "required"), variable.required}};
      if (variable.default_value) entry[key(style, "default")] = *variable.default_value;
      variables.push_back(std::move(entry));
    }
    list.push_back({{key(style, "id"), row.id},
                    {key(style, "name"), row.name},
                    {key(style, "description"),
                     row.description ? nlohmann::json(*row.description) : nlohmann::json()},
                    {key(style, "task_count"), definition.tasks.size()},
                    {key(style, "variables"), std::move(variables)},
                    {key(style, "created_at"), format_utc_iso8601(row.created_at)}});
  }
  nlohmann::json out = {{key(style, "templates"), std::move(list)}};
  add_cursor(out, page, style);
  return out;
}

nlohmann::json template_get(store::Database& db, const TemplateGetRequest& request,
                            KeyStyle style) {
  store::PlanRepository plans(db);
  auto row = plans.template_by_id(request.template_id);
  if (!row) row = plans.template_by_name(request.template_id);
  if (!row) {
    throw MissionError(ErrorCode::not_found,
                       "template '" + request.template_id + "' does not exist",
                       "mission templates list shows them", {{"field", "template_id"}});
  }
  return {{key(style, "id"), row->id},
          {key(style, "name"), row->name},
          {key(style, "description"),
           row->description ? nlohmann::json(*row->description) : nlohmann::json()},
          {key(style, "definition"), nlohmann::json::parse(row->definition)},
          {key(style, "created_at"), format_utc_iso8601(row->created_at)}};
}

namespace {

// Where a graph's pages go on: the next node to give, or the next edge (the
// edge-th prerequisite of node), and the id of that node's task, which
// tells a plan replaced between two pages from the one paged.
struct GraphPosition {
  bool edges = false;
  Node node = 0;
  std::size_t edge = 0;
};

std::string graph_cursor(const PlanState& state, const GraphPosition& position) {
  const std::string id = position.node < state.tasks.size() ? state.tasks[position.node].id : "";
  if (!position.edges) return "nodes:" + std::to_string(position.node) + ":" + id;
  return "edges:" + std::to_string(position.node) + ":" + std::to_string(position.edge) + ":" + id;
}

GraphPosition parse_graph_cursor(const PlanState& state, const std::string& text) {
  if (text.empty()) return {};
  auto refuse = [&](const std::string& why, const std::string& hint) {
    throw MissionError(ErrorCode::invalid_argument, why, hint, {{"field", "after"}});
  };
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t colon = text.find(':', at);
    parts.push_back(text.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  auto number = [&](const std::string& part) -> std::size_t {
    if (part.empty() || part.size() > 9 ||
        part.find_first_not_of("0123456789") != std::string::npos) {
      refuse("'" + text + "' is not a cursor of workflow.graph",
             "pass the afterCursor of the previous page");
    }
    return std::stoul(part);
  };
  GraphPosition position;
  std::string id;
  if (parts.size() == 3 && parts[0] == "nodes") {
    position.node = static_cast<Node>(number(parts[1]));
    id = parts[2];
  } else if (parts.size() == 4 && parts[0] == "edges") {
    position.edges = true;
    position.node = static_cast<Node>(number(parts[1]));
    position.edge = number(parts[2]);
    id = parts[3];
  } else {
    refuse("'" + text + "' is not a cursor of workflow.graph",
           "pass the afterCursor of the previous page");
  }
  // Tasks added since only extend the plan; a replaced plan has other ids.
  const bool same = position.node < state.tasks.size()
                        ? state.tasks[position.node].id == id
                        : id.empty() && position.node == state.tasks.size();
  if (!same) {
    refuse("the plan of workflow " + state.workflow_id + " was replaced while it was read",
           "read it again from the first page");
  }
  return position;
}

std::size_t reply_bytes(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

}  // namespace

nlohmann::json workflow_graph(store::Database& db, PlanCache* cache, const std::string& workflow_id,
                              KeyStyle style, const std::string& after, std::size_t max_bytes) {
  store::MissionRow workflow = require_workflow(db, workflow_id, "id");
  auto state = plan_state(cache, db, workflow.id);
  GraphPosition position = parse_graph_cursor(*state, after);
  nlohmann::json page = {{key(style, "workflow"), workflow_json(db, workflow, style)}};
  // Room for the lists: the workflow, the keys and the paging fields, and
  // the reply's envelope, take the rest.
  constexpr std::size_t kFrameBytes = 1024;
  std::size_t room = std::string::npos;
  if (max_bytes != std::string::npos) {
    const std::size_t fixed = reply_bytes(page) + kFrameBytes;
    room = max_bytes > fixed ? max_bytes - fixed : 0;
  }
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json edges = nlohmann::json::array();
  // An item goes in while it fits, and always when the page has none yet.
  auto add = [&](nlohmann::json& list, nlohmann::json item) {
    if (room != std::string::npos) {
      const std::size_t bytes = reply_bytes(item) + 1;
      if (bytes > room && !(nodes.empty() && edges.empty())) return false;
      room -= std::min(room, bytes);
    }
    list.push_back(std::move(item));
    return true;
  };
  const Node n = static_cast<Node>(state->tasks.size());
  bool full = false;
  for (; !position.edges && position.node < n; ++position.node) {
    const PlanTask& task = state->tasks[position.node];
    nlohmann::json node = {
        {key(style, "id"), task.id},
        {key(style, "name"), task.name},
        {key(style, "sequence"), task.sequence},
        {key(style, "parallel_group"),
         task.parallel_group ? nlohmann::json(*task.parallel_group) : nlohmann::json()},
        {key(style, "status"),
         seed_task_status(task.status, prerequisites_done(*state, position.node))}};
    if (!add(nodes, std::move(node))) {
      full = true;
      break;
    }
  }
  if (!full && !position.edges) position = {true, 0, 0};
  for (; !full && position.node < n; ++position.node, position.edge = 0) {
    const auto prerequisites = state->dag.prerequisites(position.node);
    const bool implied = !state->dag.has_explicit(position.node);
    for (; position.edge < prerequisites.size(); ++position.edge) {
      nlohmann::json edge = {{key(style, "from"), state->tasks[prerequisites[position.edge]].id},
                             {key(style, "to"), state->tasks[position.node].id},
                             {key(style, "implied"), implied}};
      if (!add(edges, std::move(edge))) {
        full = true;
        break;
      }
    }
    if (full) break;
  }
  page[key(style, "nodes")] = std::move(nodes);
  page[key(style, "edges")] = std::move(edges);
  if (max_bytes != std::string::npos) {
    page[key(style, "more")] = full;
    if (full) page[key(style, "after_cursor")] = graph_cursor(*state, position);
  }
  return page;
}

}  // namespace mission::daemon::planning
