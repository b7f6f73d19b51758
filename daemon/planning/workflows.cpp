// The planning tools' writers: planned workflows, their plans, tasks'
// statuses and plans, checkpoints, repositories and templates.

#include "daemon/planning/workflows.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/templates.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/ownership.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/required_rows.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"

namespace mission::daemon::planning {
namespace {

// The execution that owns what the caller makes; none for a person.
std::optional<std::string> owner_of(const Caller& caller) {
  if (caller.execution_id.empty()) return std::nullopt;
  return caller.execution_id;
}

std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The workflow a status word of seed 003 names.
MissionStatus workflow_status_named(const std::string& word) {
  static const std::pair<const char*, MissionStatus> kWords[] = {
      {"planning", MissionStatus::planning},       {"ready", MissionStatus::ready},
      {"in_progress", MissionStatus::in_progress}, {"paused", MissionStatus::paused},
      {"completed", MissionStatus::completed},     {"failed", MissionStatus::failed},
      {"cancelled", MissionStatus::cancelled}};
  for (const auto& [name, status] : kWords) {
    if (word == name) return status;
  }
  throw MissionError(ErrorCode::invalid_argument, "'" + word + "' is not a workflow status",
                     "use planning, ready, in_progress, paused, completed, failed or cancelled",
                     {{"field", "status"}});
}

void require_not_final(const store::MissionRow& workflow) {
  if (!is_final(workflow.status)) return;
  throw MissionError(ErrorCode::invalid_argument,
                     "workflow " + workflow.id + " is already " +
                         std::string(seed_workflow_status(workflow.status)),
                     "create a new workflow (workflow_create or template_apply)",
                     {{"id", workflow.id}, {"status", seed_workflow_status(workflow.status)}});
}

std::string repository_name(const std::string& path) {
  std::filesystem::path p(path);
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();
  return name.empty() ? path : name;
}

std::string normal_path(const std::string& path, const char* field) {
  if (path.empty() || path.front() != '/') {
    throw MissionError(ErrorCode::invalid_argument,
                       std::string(field) + " '" + path + "' is not absolute",
                       "give the repository's absolute path", {{"field", field}});
  }
  std::string out = std::filesystem::path(path).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// The repository at `path`, registered now when it is not yet.
store::RepositoryRow ensure_repository(store::Database& db, const std::string& path,
                                       const std::optional<std::string>& name, bool* created) {
  store::PlanRepository plans(db);
  const std::string normal = normal_path(path, "path");
  if (auto found = plans.repository_by_path(normal)) {
    if (created != nullptr) *created = false;
    return *found;
  }
  std::error_code error;
  if (!std::filesystem::is_directory(normal, error)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "repository path " + normal +
            (std::filesystem::exists(normal, error) ? " is not a directory" : " does not exist"),
        "give the absolute path of a directory that exists, the repository's root",
        {{"field", "path"}, {"path", normal}});
  }
  store::RepositoryRow row{new_random_id("rp-", 10), normal, name.value_or(repository_name(normal)),
                           unix_ms_now()};
  plans.insert_repository(row);
  if (created != nullptr) *created = true;
  return row;
}

// Replaces the workflow's planned tasks with `plan` (checked first) and
// makes it ready. Returns the number of tasks and of parallel groups.
nlohmann::json install_plan(Caller& caller, const store::MissionRow& workflow,
                            const WorkflowPlanInput& plan) {
  std::vector<PlanEntry> entries;
  entries.reserve(plan.tasks.size());
  for (const auto& task : plan.tasks)
    entries.push_back({task.name, task.sequence, task.depends_on});
  Dag dag = resolve_plan(entries);

  store::PlanRepository plans(caller.db);
  if (auto existing = plans.first_started(workflow.id)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + workflow.id + " already has started tasks (" + existing->name + ")",
        "change one task with task_replan, or create a new workflow",
        {{"id", workflow.id}, {"task_id", existing->id}});
  }
  const std::int64_t now = unix_ms_now();
  plans.delete_planned(workflow.id);
  std::vector<store::PlannedTaskRow> rows;
  rows.reserve(plan.tasks.size());
  std::set<std::string> groups;
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    const PlanTaskInput& task = plan.tasks[i];
    store::PlannedTaskRow row;
    row.id = new_random_id("tk-", 10);
    row.mission_id = workflow.id;
    row.execution_id = owner_of(caller);
    row.name = task.name;
    row.description = task.description;
    row.status = TaskStatus::pending;
    row.plan_order = static_cast<std::int64_t>(i);
    row.sequence = task.sequence;
    row.parallel_group = task.parallel_group;
    row.complexity = task.complexity;
    row.files_likely_affected = json_text(task.files_likely_affected);
    row.acceptance_criteria = json_text(task.acceptance_criteria);
    row.created_at = now;
    if (task.parallel_group) groups.insert(*task.parallel_group);
    rows.push_back(std::move(row));
  }
  std::vector<store::DependencyRow> edges;
  for (Node node = 0; node < dag.size(); ++node) {
    if (!dag.has_explicit(node)) continue;
    for (Node prerequisite : dag.prerequisites(node))
      edges.push_back({rows[node].id, rows[prerequisite].id});
  }
  plans.insert_planned(rows, edges);

  store::WorkflowPlanRow stored = *plans.workflow_plan(workflow.id);
  stored.plan_summary = plan.summary;
  stored.plan_approach = plan.approach;
  stored.plan_risks = json_text(plan.risks);
  stored.plan_assumptions = json_text(plan.assumptions);
  plans.write_workflow_plan(stored, now);
  plans.set_status(workflow.id, MissionStatus::ready, std::nullopt, now);
  caller.notify("mission", "updated", workflow.id);
  return {{"workflow_id", workflow.id},
          {"tasks_created", rows.size()},
          {"dependencies", edges.size()},
          {"implied_dependencies", dag.edge_count() - edges.size()},
          {"parallelizable_groups", groups.size()},
          {"status", "ready"}};
}

store::MissionRow new_workflow(Caller& caller, const std::string& name,
                               const std::string& source_type,
                               const std::optional<std::string>& source_ref,
                               const std::string& source_content,
                               const std::optional<std::string>& repository_path,
                               std::int64_t max_parallel, bool auto_workspaces) {
  store::MissionRow row;
  row.id = new_random_id("wf-", 10);
  row.kind = MissionKind::planned;
  row.execution_id = owner_of(caller);
  row.cwd =
      caller.execution_id.empty() ? caller.cwd : execution_cwd(caller.db, caller.execution_id);
  row.name = name;
  row.status = MissionStatus::planning;
  row.created_at = row.updated_at = unix_ms_now();
  store::MissionRepository(caller.db).insert(row);
  store::WorkflowPlanRow plan;
  plan.mission_id = row.id;
  plan.source_type = source_type;
  plan.source_ref = source_ref;
  plan.source_content = source_content;
  // Without one, the repository is where the workflow was made (the seed's
  // default: the current directory), so workflow_list by path finds it.
  std::error_code error;
  if (repository_path) {
    plan.repository_id = ensure_repository(caller.db, *repository_path, std::nullopt, nullptr).id;
  } else if (!row.cwd.empty() && std::filesystem::is_directory(row.cwd, error)) {
    plan.repository_id = ensure_repository(caller.db, row.cwd, std::nullopt, nullptr).id;
  }
  plan.max_parallel_tasks = max_parallel;
  plan.auto_create_workspaces = auto_workspaces;
  store::PlanRepository(caller.db).write_workflow_plan(plan, row.created_at);
  caller.notify("mission", "created", row.id);
  return row;
}

TaskStatus task_status_named(const std::string& word) {
  if (word == "pending" || word == "ready") return TaskStatus::pending;
  if (word == "in_progress") return TaskStatus::in_progress;
  if (word == "completed") return TaskStatus::success;
  if (word == "failed") return TaskStatus::failed;
  if (word == "skipped") return TaskStatus::skipped;
  throw MissionError(ErrorCode::invalid_argument, "'" + word + "' is not a task status",
                     "use pending, in_progress, completed, failed or skipped",
                     {{"field", "status"}});
}

// The unfinished prerequisites of a planned task, refused by name. The DAG's
// shape comes from the cache when it keeps the workflow (a status change
// then costs a read per prerequisite, not a load of the whole plan); the
// statuses are always read from the store, in this transaction.
void require_prerequisites_done(store::Database& db, PlanCache* cache,
                                const store::PlannedTaskRow& task, const char* doing) {
  std::vector<std::string> waiting;
  auto kept = cache != nullptr ? cache->peek(task.mission_id) : nullptr;
  auto node = kept ? kept->node_of(task.id) : std::nullopt;
  if (node) {
    store::PlanRepository plans(db);
    for (Node prerequisite : kept->dag.prerequisites(*node)) {
      auto status = plans.task_status(kept->tasks[prerequisite].id);
      if (status && !is_done(*status)) waiting.push_back(kept->tasks[prerequisite].name);
    }
  } else {
    PlanState state = load_plan_state(db, task.mission_id);
    node = state.node_of(task.id);
    if (!node) return;
    for (Node prerequisite : state.dag.prerequisites(*node)) {
      if (!is_done(state.tasks[prerequisite].status))
        waiting.push_back(state.tasks[prerequisite].name);
    }
  }
  if (waiting.empty()) return;
  nlohmann::json names = nlohmann::json::array();
  std::string list;
  for (const auto& name : waiting) {
    if (names.size() == limits::kMaxBlockersShown) break;
    names.push_back(name);
    list += (list.empty() ? "" : ", ") + name;
  }
  throw MissionError(ErrorCode::invalid_argument,
                     "task '" + task.name + "' cannot " + doing + ": it waits for " + list,
                     "finish those first; workflow_next_tasks lists the tasks that can start now",
                     {{"task_id", task.id}, {"blocked_by", std::move(names)}});
}

// A planned task starts only while its workflow runs: ready or in
// progress (blocked counts as in progress). Planning, paused and ended
// workflows refuse, naming their status.
void require_running_workflow(store::Database& db, const store::PlannedTaskRow& task) {
  auto workflow = store::MissionRepository(db).find(task.mission_id);
  if (!workflow) return;
  const MissionStatus status = workflow->status;
  if (status == MissionStatus::ready || status == MissionStatus::in_progress ||
      status == MissionStatus::blocked || status == MissionStatus::pending) {
    return;
  }
  const std::string word(seed_workflow_status(status));
  std::string hint;
  if (status == MissionStatus::paused) {
    hint = "resume it first: workflow_update_status with status in_progress";
  } else if (status == MissionStatus::planning) {
    hint = "set its plan with workflow_set_plan, which makes it ready";
  } else {
    hint = "the workflow has ended; create a new one (workflow_create or template_apply)";
  }
  throw MissionError(
      ErrorCode::invalid_argument,
      "task '" + task.name + "' cannot start: workflow " + workflow->id + " is " + word, hint,
      {{"task_id", task.id}, {"workflow_id", workflow->id}, {"workflow_status", word}});
}

// Refuses while a run of the workflow is live (running or stopping).
void require_no_live_run(store::Database& db, const store::MissionRow& workflow) {
  auto run = store::RunRepository(db).live_of(workflow.id);
  if (!run) return;
  throw MissionError(ErrorCode::invalid_argument,
                     "workflow " + workflow.id + " is running (run " + run->id + ")",
                     "stop it first: mission workflows stop " + workflow.id,
                     {{"id", workflow.id}, {"run_id", run->id}});
}

}  // namespace

store::MissionRow require_mission(store::Database& db, const std::string& id, const char* field) {
  return store::require_mission(db, id, field,
                                "use the id workflow_create returned; workflow_list shows them");
}

store::TaskRow require_task(store::Database& db, const std::string& id) {
  return store::require_task(
      db, id, "task_id",
      "use a task id from workflow_next_tasks or workflow_get with include_tasks");
}

std::string execution_cwd(store::Database& db, const std::string& execution_id) {
  auto row = store::ExecutionRepository(db).find(execution_id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "agent execution " + execution_id + " is gone",
                       "reconnect with mission mcp connect");
  }
  return row->cwd;
}

store::MissionRow require_workflow(store::Database& db, const std::string& id, const char* field) {
  store::MissionRow row = require_mission(db, id, field);
  if (row.kind != MissionKind::planned) {
    throw MissionError(
        ErrorCode::invalid_argument,
        row.id + " is a " + std::string(name_of(row.kind)) + ", not a planned workflow",
        "planning tools take the id workflow_create or template_apply returned; "
        "get_context reads missions",
        {{"field", field}, {"id", row.id}});
  }
  return row;
}

store::PlannedTaskRow require_planned_task(store::Database& db, const std::string& id,
                                           const char* field) {
  auto row = store::PlanRepository(db).task(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, std::string(field) + " '" + id + "' does not exist",
                       "use a task id from workflow_next_tasks or workflow_get with include_tasks",
                       {{"field", field}, {"id", id}});
  }
  return *row;
}

nlohmann::json repository_json(const store::RepositoryRow& row, KeyStyle style) {
  return {{key(style, "id"), row.id},
          {key(style, "path"), row.path},
          {key(style, "name"), row.name},
          {key(style, "created_at"), row.created_at}};
}

nlohmann::json workflow_create(Caller& caller, const WorkflowCreateRequest& request) {
  store::MissionRow row = new_workflow(
      caller, request.name, request.source_type, request.source_ref, request.source_content,
      request.repository_path, request.max_parallel_tasks, request.auto_create_workspaces);
  return {{"id", row.id},
          {"name", row.name},
          {"status", "planning"},
          {"max_parallel_tasks", request.max_parallel_tasks},
          {"auto_create_workspaces", request.auto_create_workspaces}};
}

TaskAdded task_add(Caller& caller, const TaskAddRequest& request) {
  store::MissionRow workflow = require_workflow(caller.db, request.workflow_id, "workflow_id");
  store::require_mission_writer(caller.db, caller.execution_id, workflow);
  require_not_final(workflow);
  // Everything below reads by index: a plan of ten thousand tasks costs an
  // added task no more than a plan of ten.
  store::PlanRepository plans(caller.db);
  const store::PlanEnd end = plans.plan_end(workflow.id);
  PlanTaskInput task = request.task;
  if (!request.sequence_given) {
    task.sequence = end.last_sequence;
  } else if (task.sequence < end.last_sequence) {
    throw MissionError(ErrorCode::invalid_argument,
                       "sequence " + std::to_string(task.sequence) + " is below the plan's last, " +
                           std::to_string(end.last_sequence) +
                           ": tasks already planned would come to wait for it",
                       "leave sequence out, or give " + std::to_string(end.last_sequence) +
                           " or more; name what it waits for in depends_on",
                       {{"field", "sequence"}});
  }
  if (auto same = plans.planned_task_ref(workflow.id, task.name); same && same->name == task.name) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " already has a task named '" + task.name + "'",
                       "give the new task another name",
                       {{"field", "name"}, {"task_id", same->id}});
  }
  store::PlannedTaskRow row;
  row.id = new_random_id("tk-", 10);
  row.mission_id = workflow.id;
  row.execution_id = owner_of(caller);
  row.name = task.name;
  row.description = task.description;
  row.status = TaskStatus::pending;
  row.plan_order = end.last_order + 1;
  row.sequence = task.sequence;
  row.parallel_group = task.parallel_group;
  row.complexity = task.complexity;
  row.files_likely_affected = json_text(task.files_likely_affected);
  row.acceptance_criteria = json_text(task.acceptance_criteria);
  row.created_at = unix_ms_now();
  // Its prerequisites as the DAG will have them (docs/adr/0015): the ones
  // it names, else the stage before its sequence; in plan order.
  std::vector<store::PlannedTaskRef> prerequisites;
  std::vector<store::DependencyRow> edges;
  for (const std::string& wanted : task.depends_on) {
    auto found = plans.planned_task_ref(workflow.id, wanted);
    if (!found) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "depends_on names '" + wanted + "', which is no task of workflow " + workflow.id,
          "name a task of the workflow by its name or id (list_tasks)", {{"field", "depends_on"}});
    }
    if (std::none_of(edges.begin(), edges.end(),
                     [&](const auto& edge) { return edge.depends_on_id == found->id; })) {
      edges.push_back({row.id, found->id});
      prerequisites.push_back(std::move(*found));
    }
  }
  if (task.depends_on.empty()) {
    prerequisites = plans.stage_before(workflow.id, task.sequence);
  } else {
    std::sort(prerequisites.begin(), prerequisites.end(),
              [](const auto& a, const auto& b) { return a.plan_order < b.plan_order; });
  }
  plans.insert_planned(std::span<const store::PlannedTaskRow>(&row, 1), edges);
  caller.notify("task", "created", row.id);
  TaskAdded added{row.id, row.name, true, {}};
  for (auto& prerequisite : prerequisites) {
    if (!is_done(prerequisite.status)) added.ready = false;
    added.depends_on.push_back(std::move(prerequisite.name));
  }
  return added;
}

nlohmann::json workflow_create_planned(Caller& caller, const WorkflowCreateRequest& request,
                                       const WorkflowPlanInput& plan) {
  std::vector<PlanEntry> entries;
  entries.reserve(plan.tasks.size());
  for (const auto& task : plan.tasks)
    entries.push_back({task.name, task.sequence, task.depends_on});
  resolve_plan(entries);  // refused before the workflow exists
  store::MissionRow workflow = new_workflow(
      caller, request.name, request.source_type, request.source_ref, request.source_content,
      request.repository_path, request.max_parallel_tasks, request.auto_create_workspaces);
  nlohmann::json installed = install_plan(caller, workflow, plan);
  installed["name"] = workflow.name;
  return installed;
}

nlohmann::json workflow_set_plan(Caller& caller, const WorkflowSetPlanRequest& request) {
  store::MissionRow workflow = require_workflow(caller.db, request.id, "id");
  store::require_mission_writer(caller.db, caller.execution_id, workflow);
  require_not_final(workflow);
  return install_plan(caller, workflow, request.plan);
}

store::MissionRow require_replannable(store::Database& db, const std::string& id) {
  store::MissionRow workflow = require_workflow(db, id, "id");
  if (is_final(workflow.status)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " is already " +
                           std::string(seed_workflow_status(workflow.status)),
                       "plan a new one: mission workflows create NAME --from FILE",
                       {{"id", workflow.id}});
  }
  require_no_live_run(db, workflow);
  if (auto started = store::PlanRepository(db).first_started(workflow.id)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + workflow.id + " has started tasks (" + started->name +
            "): only a plan none of whose tasks has started can be replaced",
        "to run failed tasks again: mission workflows reset " + workflow.id +
            "; to change more, create a new workflow from the edited file: mission workflows "
            "create NAME --from FILE",
        {{"id", workflow.id}, {"task_id", started->id}});
  }
  return workflow;
}

nlohmann::json workflow_replace_plan(Caller& caller, const std::string& id,
                                     const WorkflowPlanInput& plan,
                                     std::optional<std::int64_t> max_parallel_tasks,
                                     std::optional<bool> auto_create_workspaces) {
  store::MissionRow workflow = require_replannable(caller.db, id);
  nlohmann::json installed = install_plan(caller, workflow, plan);
  store::PlanRepository plans(caller.db);
  store::WorkflowPlanRow stored = *plans.workflow_plan(workflow.id);
  if (max_parallel_tasks) stored.max_parallel_tasks = *max_parallel_tasks;
  if (auto_create_workspaces) stored.auto_create_workspaces = *auto_create_workspaces;
  plans.write_workflow_plan(stored, unix_ms_now());
  installed["name"] = workflow.name;
  return installed;
}

nlohmann::json workflow_update_status(Caller& caller, const WorkflowUpdateStatusRequest& request) {
  store::MissionRow workflow = require_workflow(caller.db, request.id, "id");
  store::require_mission_writer(caller.db, caller.execution_id, workflow);
  MissionStatus status = workflow_status_named(request.status);
  require_not_final(workflow);
  const auto tasks = store::PlanRepository(caller.db).planned_tasks(workflow.id);
  if ((status == MissionStatus::ready || status == MissionStatus::in_progress) && tasks.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "workflow " + workflow.id + " has no plan yet",
                       "set one with workflow_set_plan first", {{"id", workflow.id}});
  }
  // A status that says something of the tasks must be true of them.
  auto first_task = [&](auto&& matches) -> const store::PlannedTaskRow* {
    for (const auto& task : tasks) {
      if (matches(task)) return &task;
    }
    return nullptr;
  };
  if (status == MissionStatus::planning) {
    if (const auto* busy = first_task(
            [](const auto& t) { return t.status == TaskStatus::in_progress || t.claimed_by; })) {
      throw MissionError(ErrorCode::invalid_argument,
                         "workflow " + workflow.id + " cannot go back to planning: task '" +
                             busy->name + "' is " +
                             (busy->status == TaskStatus::in_progress ? "in progress" : "claimed"),
                         "let its agent finish or release it first, or pause the workflow",
                         {{"id", workflow.id}, {"task_id", busy->id}});
    }
  }
  if (status == MissionStatus::completed) {
    if (const auto* open = first_task([](const auto& t) { return !is_done(t.status); })) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "workflow " + workflow.id + " is not completed: task '" + open->name + "' is " +
              std::string(seed_task_status(open->status, true)),
          "complete or skip every task first, or end the workflow failed or cancelled",
          {{"id", workflow.id}, {"task_id", open->id}});
    }
  }
  // A blocked workflow stays blocked until a person clears its blocker.
  if (workflow.status == MissionStatus::blocked && status == MissionStatus::in_progress)
    status = MissionStatus::blocked;
  store::PlanRepository(caller.db).set_status(workflow.id, status, request.reason, unix_ms_now());
  caller.notify("mission", "updated", workflow.id);
  return {{"success", true},
          {"id", workflow.id},
          {"previous_status", seed_workflow_status(workflow.status)},
          {"status", seed_workflow_status(status)}};
}

nlohmann::json workflow_delete(Caller& caller, const std::string& id) {
  store::MissionRow workflow = require_workflow(caller.db, id, "id");
  // A person (no execution) may change any workflow, agents' included.
  if (!caller.execution_id.empty())
    store::require_mission_writer(caller.db, caller.execution_id, workflow);
  require_no_live_run(caller.db, workflow);
  const auto tasks = store::PlanRepository(caller.db).planned_tasks(workflow.id);
  for (const auto& task : tasks) {
    if (task.status != TaskStatus::in_progress && !task.claimed_by) continue;
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + workflow.id + " is being worked on: task '" + task.name + "' is " +
            (task.status == TaskStatus::in_progress ? "in progress" : "claimed") +
            (task.claimed_by ? " by agent execution " + *task.claimed_by : std::string()),
        "let its agent finish, or stop it (mission exec stop), then remove the workflow",
        {{"id", workflow.id}, {"task_id", task.id}});
  }
  const auto worktrees = store::WorkspaceRepository(caller.db).in_statuses(
      workflow.id, {WorkspaceStatus::active, WorkspaceStatus::merged, WorkspaceStatus::abandoned});
  if (!worktrees.empty()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "workflow " + workflow.id + " still has " +
                           std::to_string(worktrees.size()) + " git worktree" +
                           (worktrees.size() == 1 ? "" : "s") + " (" + worktrees.front().path +
                           (worktrees.size() == 1 ? ")" : ", ...)"),
                       "remove them first: mission workspaces clean --workflow " + workflow.id,
                       {{"id", workflow.id}, {"workspaces", worktrees.size()}});
  }
  // Told while the row is there to describe.
  caller.notify("mission", "deleted", workflow.id);
  // The schema's cascades take everything recorded under it: its tasks and
  // their dependencies, checkpoints, changes and attempts, its runs and
  // its workspaces' rows.
  auto s = caller.db.prepare("DELETE FROM missions WHERE id = ?");
  s.bind(1, workflow.id);
  s.step();
  return {{"id", workflow.id},
          {"name", workflow.name},
          {"status", seed_workflow_status(workflow.status)},
          {"tasks_deleted", tasks.size()}};
}

nlohmann::json workflow_reset(Caller& caller, const std::string& id,
                              const std::optional<std::string>& task) {
  store::MissionRow workflow = require_workflow(caller.db, id, "id");
  // A person (no execution) may change any workflow, agents' included.
  if (!caller.execution_id.empty())
    store::require_mission_writer(caller.db, caller.execution_id, workflow);
  require_no_live_run(caller.db, workflow);
  store::PlanRepository plans(caller.db);
  std::vector<store::PlannedTaskRow> chosen;
  if (task) {
    auto ref = plans.planned_task_ref(workflow.id, *task);
    if (!ref) {
      throw MissionError(ErrorCode::not_found,
                         "workflow " + workflow.id + " has no task '" + *task + "'",
                         "name one of its tasks by name or id: mission workflows show " +
                             workflow.id + " lists them",
                         {{"id", workflow.id}, {"task", *task}});
    }
    if (ref->status != TaskStatus::failed) {
      throw MissionError(ErrorCode::invalid_argument,
                         "task '" + ref->name + "' is " +
                             std::string(seed_task_status(ref->status, true)) +
                             ", not failed: only a failed task goes back to ready",
                         "mission workflows status " + workflow.id + " shows what failed",
                         {{"id", workflow.id}, {"task_id", ref->id}});
    }
    chosen.push_back(*plans.task(ref->id));
  } else {
    for (auto& row : plans.planned_tasks(workflow.id)) {
      if (row.status == TaskStatus::failed) chosen.push_back(std::move(row));
    }
  }
  const std::int64_t now = unix_ms_now();
  nlohmann::json names = nlohmann::json::array();
  tasks::TaskLifecycle lifecycle = lifecycle_of(caller);
  for (auto& row : chosen) {
    lifecycle.reset(row);
    names.push_back(row.name);
  }
  // With work to do again, a workflow that ended failed or partly done
  // is ready to run again.
  MissionStatus status = workflow.status;
  if (!chosen.empty() && (status == MissionStatus::failed || status == MissionStatus::partial)) {
    status = MissionStatus::ready;
    plans.set_status(workflow.id, status, std::nullopt, now);
    caller.notify("mission", "updated", workflow.id);
  }
  return {{"id", workflow.id},
          {"tasks_reset", std::move(names)},
          {"previous_status", seed_workflow_status(workflow.status)},
          {"status", seed_workflow_status(status)}};
}

nlohmann::json workflow_set_parallelism(Caller& caller,
                                        const WorkflowSetParallelismRequest& request) {
  store::MissionRow workflow = require_workflow(caller.db, request.id, "id");
  store::require_mission_writer(caller.db, caller.execution_id, workflow);
  store::PlanRepository plans(caller.db);
  store::WorkflowPlanRow plan = *plans.workflow_plan(workflow.id);
  plan.max_parallel_tasks = request.max_parallel_tasks;
  if (request.auto_create_workspaces) plan.auto_create_workspaces = *request.auto_create_workspaces;
  plans.write_workflow_plan(plan, unix_ms_now());
  caller.notify("mission", "updated", workflow.id);
  return {{"success", true},
          {"id", workflow.id},
          {"max_parallel_tasks", plan.max_parallel_tasks},
          {"auto_create_workspaces", plan.auto_create_workspaces}};
}

nlohmann::json task_set_plan(Caller& caller, const TaskSetPlanRequest& request) {
  store::TaskRow task = require_task(caller.db, request.id);
  store::require_task_writer(caller.db, caller.execution_id, task);
  if (is_final(task.status)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task.id + " has ended (" + std::string(name_of(task.status)) + ")",
                       "use task_replan on a failed task", {{"task_id", task.id}});
  }
  store::PlanRepository(caller.db).set_task_plan(task.id, request.plan_json, request.context_json);
  caller.notify("task", "updated", task.id);
  return {{"success", true}, {"id", task.id}};
}

nlohmann::json task_update_status(Caller& caller, const TaskUpdateStatusRequest& request) {
  store::TaskRow stored = require_task(caller.db, request.id);
  store::require_task_writer(caller.db, caller.execution_id, stored);
  store::PlannedTaskRow task = require_planned_task(caller.db, request.id, "id");
  const TaskStatus to = task_status_named(request.status);
  const std::int64_t now = unix_ms_now();
  const TaskStatus from = task.status;
  auto refuse = [&](const std::string& hint) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task '" + task.name + "' cannot go from " + std::string(name_of(from)) +
                           " to " + request.status,
                       hint, {{"task_id", task.id}, {"status", name_of(from)}});
  };
  if (to == TaskStatus::success && !request.outcome) {
    throw MissionError(ErrorCode::invalid_argument, "status completed needs an outcome",
                       "say what the task achieved in outcome", {{"field", "outcome"}});
  }
  if (to == TaskStatus::failed && !request.error) {
    throw MissionError(ErrorCode::invalid_argument, "status failed needs an error",
                       "say what went wrong in error", {{"field", "error"}});
  }
  if (!stored.snapshot_id.empty() && from == TaskStatus::in_progress &&
      (to == TaskStatus::success || to == TaskStatus::failed)) {
    refuse(
        "it was started with start_task: end it with complete_task, which records its change set");
  }
  if (auto why = tasks::refusal(from, to)) refuse(std::string(*why));
  tasks::TaskLifecycle lifecycle = lifecycle_of(caller);
  switch (to) {
    case TaskStatus::in_progress:
      require_running_workflow(caller.db, task);
      require_prerequisites_done(caller.db, caller.plans, task, "start");
      lifecycle.start(task, caller.execution_id, now);
      break;
    case TaskStatus::success: {
      if (from == TaskStatus::pending)
        require_prerequisites_done(caller.db, caller.plans, task, "complete");
      nlohmann::json outcome = {{"summary", *request.outcome}};
      if (request.outcome_detail_json)
        outcome["detail"] = nlohmann::json::parse(*request.outcome_detail_json);
      lifecycle.succeed(task, json_text(outcome), now);
      break;
    }
    case TaskStatus::failed:
      lifecycle.fail(task, *request.error, now);
      break;
    case TaskStatus::skipped:
      lifecycle.skip(task, now);
      break;
    case TaskStatus::pending:
      lifecycle.reset(task);
      break;
    default:  // task_status_named names no other
      break;
  }
  return {{"success", true},
          {"id", task.id},
          {"previous_status", seed_task_status(from, true)},
          {"status", seed_task_status(to, true)}};
}

nlohmann::json task_replan(Caller& caller, const TaskReplanRequest& request) {
  store::TaskRow stored = require_task(caller.db, request.id);
  store::require_task_writer(caller.db, caller.execution_id, stored);
  store::PlannedTaskRow task = require_planned_task(caller.db, request.id, "id");
  if (task.status != TaskStatus::failed && task.status != TaskStatus::in_progress &&
      task.status != TaskStatus::pending) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "task '" + task.name + "' has ended (" + std::string(name_of(task.status)) + ")",
        "replan a failed, pending or in-progress task", {{"task_id", task.id}});
  }
  const std::int64_t now = unix_ms_now();
  nlohmann::json detail = {{"reason", request.reason},
                           {"new_plan", nlohmann::json::parse(request.new_plan_json)}};
  if (task.task_plan)
    detail["previous_plan"] = nlohmann::json::parse(*task.task_plan, nullptr, false);
  store::CheckpointRow checkpoint;
  checkpoint.id = new_random_id("cp-", 10);
  checkpoint.task_id = task.id;
  checkpoint.seq = store::next_journal_seq(caller.db, task.id);
  checkpoint.execution_id = caller.execution_id;
  checkpoint.type = CheckpointType::replan;
  checkpoint.summary = request.reason;
  checkpoint.detail = json_text(detail);
  checkpoint.created_at = now;
  store::PlanRepository plans(caller.db);
  plans.insert_checkpoint(checkpoint);
  plans.set_task_plan(task.id, request.new_plan_json, std::nullopt);
  if (task.status == TaskStatus::failed) {
    lifecycle_of(caller).reset(task);
  } else {
    caller.notify("task", "updated", task.id);
  }
  return {{"success", true},
          {"checkpoint_id", checkpoint.id},
          {"sequence", checkpoint.seq},
          {"status", seed_task_status(task.status, true)}};
}

nlohmann::json checkpoint_add(Caller& caller, const CheckpointAddRequest& request) {
  store::TaskRow task = require_task(caller.db, request.task_id);
  store::require_task_writer(caller.db, caller.execution_id, task);
  store::CheckpointRow row;
  row.id = new_random_id("cp-", 10);
  row.task_id = task.id;
  row.seq = store::next_journal_seq(caller.db, task.id);
  row.execution_id = caller.execution_id;
  row.type = request.type;
  row.summary = request.summary;
  row.detail = request.detail_json;
  if (!request.files_changed.empty()) row.files_changed = json_text(request.files_changed);
  row.created_at = unix_ms_now();
  store::PlanRepository(caller.db).insert_checkpoint(row);
  return {{"id", row.id}, {"sequence", row.seq}, {"task_id", task.id}};
}

nlohmann::json repository_register(Caller& caller, const RepositoryRegisterRequest& request) {
  bool created = false;
  store::RepositoryRow row = ensure_repository(caller.db, request.path, request.name, &created);
  nlohmann::json out = repository_json(row, KeyStyle::snake);
  out["already_registered"] = !created;
  return out;
}

nlohmann::json template_create(Caller& caller, const TemplateCreateRequest& request) {
  if (request.from_workflow_id.has_value() == request.definition.has_value()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "give either from_workflow_id or template, not both or neither",
                       "templatize a workflow with from_workflow_id, or define tasks in template",
                       {{"field", "template"}});
  }
  store::PlanRepository plans(caller.db);
  if (plans.template_by_name(request.name)) {
    throw MissionError(ErrorCode::duplicate, "a template named '" + request.name + "' exists",
                       "choose another name; template_list shows them", {{"field", "name"}});
  }
  TemplateDefinition definition;
  if (request.from_workflow_id) {
    store::MissionRow workflow =
        require_workflow(caller.db, *request.from_workflow_id, "from_workflow_id");
    PlanState state = load_plan_state(caller.db, workflow.id);
    if (state.tasks.empty()) {
      throw MissionError(ErrorCode::invalid_argument, "workflow " + workflow.id + " has no plan",
                         "set its plan with workflow_set_plan first",
                         {{"field", "from_workflow_id"}});
    }
    for (Node node = 0; node < state.tasks.size(); ++node) {
      const PlanTask& task = state.tasks[node];
      TemplateTask entry{task.name, task.description, task.sequence, task.parallel_group, {}};
      if (state.dag.has_explicit(node)) {
        for (Node prerequisite : state.dag.prerequisites(node))
          entry.depends_on.push_back(state.tasks[prerequisite].name);
      }
      definition.tasks.push_back(std::move(entry));
    }
  } else {
    definition = *request.definition;
  }
  check_definition(definition);
  store::TemplateRow row{new_random_id("tp-", 10), request.name,
                         request.description,      json_text(definition_json(definition)),
                         caller.execution_id,      unix_ms_now()};
  plans.insert_template(row);
  return {{"id", row.id},
          {"name", row.name},
          {"task_count", definition.tasks.size()},
          {"variable_count", definition.variables.size()}};
}

nlohmann::json template_apply(Caller& caller, const TemplateApplyRequest& request) {
  store::PlanRepository plans(caller.db);
  auto row = plans.template_by_id(request.template_id);
  if (!row) row = plans.template_by_name(request.template_id);
  if (!row) {
    throw MissionError(ErrorCode::not_found,
                       "template_id '" + request.template_id + "' does not exist",
                       "template_list shows the templates", {{"field", "template_id"}});
  }
  TemplateDefinition definition =
      instantiate(definition_from_json(nlohmann::json::parse(row->definition)), request.variables);
  nlohmann::json source = {{"template_id", row->id}, {"variables", request.variables}};
  store::MissionRow workflow =
      new_workflow(caller, request.workflow_name.empty() ? row->name : request.workflow_name,
                   "custom", "template:" + row->id, json_text(source), request.repository_path,
                   request.max_parallel_tasks.value_or(1), false);
  WorkflowPlanInput plan;
  plan.summary = row->description.value_or("From template " + row->name);
  plan.approach = "Template " + row->name;
  for (const auto& task : definition.tasks) {
    PlanTaskInput input;
    input.name = task.name;
    input.description = task.description;
    input.sequence = task.sequence;
    input.parallel_group = task.parallel_group;
    input.depends_on = task.depends_on;
    plan.tasks.push_back(std::move(input));
  }
  nlohmann::json installed = install_plan(caller, workflow, plan);
  return {{"workflow_id", workflow.id},
          {"template_id", row->id},
          {"tasks_created", installed.at("tasks_created")},
          {"status", "ready"}};
}

void require_startable(store::Database& db, PlanCache* cache, const std::string& task_id) {
  auto task = store::PlanRepository(db).task(task_id);
  if (!task || !task->plan_order) return;
  require_running_workflow(db, *task);
  require_prerequisites_done(db, cache, *task, "start");
}

}  // namespace mission::daemon::planning
