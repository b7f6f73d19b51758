#pragma once
// Persistence of planned work (docs/adr/0015): a planned workflow's source,
// plan and parallelism (columns of missions), its planned tasks (rows of
// tasks with a plan_order) and their dependencies (task_dependencies), the
// checkpoints of a task's journal, registered repositories and templates.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

// The plan columns of a missions row.
struct WorkflowPlanRow {
  std::string mission_id;
  std::optional<std::string> source_type;
  std::optional<std::string> source_ref;
  std::optional<std::string> source_content;
  std::optional<std::string> repository_id;
  std::optional<std::string> plan_summary;
  std::optional<std::string> plan_approach;
  std::string plan_risks = "[]";        // JSON array
  std::string plan_assumptions = "[]";  // JSON array
  std::int64_t max_parallel_tasks = 1;
  bool auto_create_workspaces = false;
  std::optional<std::string> status_reason;
  std::int64_t plan_revision = 0;
};

// A task as the planner sees it: no snapshot, its plan fields.
struct PlannedTaskRow {
  std::string id;
  std::string mission_id;
  std::optional<std::string> execution_id;
  std::string name;
  std::string description;
  TaskStatus status = TaskStatus::pending;
  std::optional<std::int64_t> plan_order;  // nullopt: an ad-hoc task
  std::int64_t sequence = 0;
  std::optional<std::string> parallel_group;
  std::optional<std::string> complexity;
  std::string files_likely_affected = "[]";  // JSON array
  std::string acceptance_criteria = "[]";    // JSON array
  std::optional<std::string> task_plan;      // JSON
  std::optional<std::string> task_context;   // JSON
  std::optional<std::string> outcome;        // JSON
  std::optional<std::string> error;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> completed_at;
  std::int64_t created_at = 0;
  std::optional<std::string> claimed_by;  // the execution holding its claim
};

// What changes of a planned task as it runs: read for all of a workflow's
// tasks at once when a kept DAG is brought up to date.
struct TaskProgressRow {
  std::string id;
  TaskStatus status = TaskStatus::pending;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> completed_at;
  std::optional<std::string> claimed_by;
};

// A planned task as a new task's prerequisite: enough to name it and tell
// whether it is done.
struct PlannedTaskRef {
  std::string id;
  std::string name;
  TaskStatus status = TaskStatus::pending;
  std::int64_t plan_order = 0;
};

// Where a plan ends: its greatest plan_order and sequence (-1 and 0 for a
// plan with no task).
struct PlanEnd {
  std::int64_t last_order = -1;
  std::int64_t last_sequence = 0;
};

struct DependencyRow {
  std::string task_id;
  std::string depends_on_id;
};

struct CheckpointRow {
  std::string id;
  std::string task_id;
  std::int64_t seq = 0;
  std::optional<std::string> execution_id;
  CheckpointType type = CheckpointType::progress;
  std::string summary;
  std::optional<std::string> detail;         // JSON object
  std::optional<std::string> files_changed;  // JSON array
  std::int64_t created_at = 0;
};

struct RepositoryRow {
  std::string id;
  std::string path;
  std::string name;
  std::int64_t created_at = 0;
};

struct TemplateRow {
  std::string id;
  std::string name;
  std::optional<std::string> description;
  std::string definition;  // JSON {tasks, variables}
  std::optional<std::string> execution_id;
  std::int64_t created_at = 0;
};

// How far a workflow's planned tasks are: how many, how many done (ended
// well or skipped), how many running.
struct PlanProgressCounts {
  std::int64_t total = 0;
  std::int64_t done = 0;
  std::int64_t running = 0;
};

class PlanRepository {
 public:
  explicit PlanRepository(Database& db) : db_(db) {}

  std::optional<WorkflowPlanRow> workflow_plan(const std::string& mission_id);
  // Writes every plan column of the row (not plan_revision) and bumps the revision.
  void write_workflow_plan(const WorkflowPlanRow& row, std::int64_t now);
  std::int64_t plan_revision(const std::string& mission_id);
  void bump_revision(const std::string& mission_id);
  void set_status(const std::string& mission_id, MissionStatus status,
                  const std::optional<std::string>& reason, std::int64_t now);

  // Inserts the tasks and their edges, many rows a statement (the edges in
  // key order).
  void insert_planned(std::span<const PlannedTaskRow> tasks, std::span<const DependencyRow> edges);
  // Deletes the workflow's planned tasks and their edges (the edges first,
  // in one statement, so the tasks' trigger finds none to delete).
  void delete_planned(const std::string& mission_id);
  // The first (in plan order) of the workflow's planned tasks that is no
  // longer pending, if any: one indexed read, not the whole plan.
  std::optional<PlannedTaskRow> first_started(const std::string& mission_id);
  // The workflow's planned tasks, in plan order.
  std::vector<PlannedTaskRow> planned_tasks(const std::string& mission_id);
  // Where the workflow's plan ends: two reads at the end of indexes.
  PlanEnd plan_end(const std::string& mission_id);
  // The workflow's planned task named `name_or_id`, else the one whose id
  // it is: indexed reads, whatever the plan's size.
  std::optional<PlannedTaskRef> planned_task_ref(const std::string& mission_id,
                                                 const std::string& name_or_id);
  // The planned tasks of the greatest sequence below `sequence`, in plan
  // order: what a task of that sequence without depends_on waits for. Read
  // by index: as many rows as that stage has.
  std::vector<PlannedTaskRef> stage_before(const std::string& mission_id, std::int64_t sequence);
  std::optional<PlannedTaskRow> task(const std::string& id);
  // A task's status alone (one cached statement), nullopt when it is gone.
  std::optional<TaskStatus> task_status(const std::string& id);
  PlanProgressCounts progress_counts(const std::string& mission_id);
  // The workflow's planned tasks' ids and progress, in plan order.
  std::vector<TaskProgressRow> planned_progress(const std::string& mission_id);
  // The workflow's edges (between planned tasks).
  std::vector<DependencyRow> dependencies(const std::string& mission_id);
  void set_task_plan(const std::string& task_id, const std::string& plan,
                     const std::optional<std::string>& context);
  // Sets status and the fields that go with it: outcome, error, the times.
  void set_task_status(const PlannedTaskRow& row);
  // Forgets the snapshot of a start that was given up (its agent ended or
  // lost its claim): the task's next start is a new one.
  void drop_snapshot(const std::string& task_id);

  void insert_checkpoint(const CheckpointRow& row);
  // A task's checkpoints, oldest first: those after `since_seq`, of `types`
  // (all when empty); the newest `limit` of them when a limit is set.
  std::vector<CheckpointRow> checkpoints(const std::string& task_id,
                                         std::span<const CheckpointType> types,
                                         std::optional<std::int64_t> since_seq,
                                         std::optional<std::size_t> limit);

  void insert_repository(const RepositoryRow& row);
  std::optional<RepositoryRow> repository_by_path(const std::string& path);
  std::optional<RepositoryRow> repository(const std::string& id);
  Page<RepositoryRow> repositories(const PageRequest& request);

  void insert_template(const TemplateRow& row);
  std::optional<TemplateRow> template_by_id(const std::string& id);
  std::optional<TemplateRow> template_by_name(const std::string& name);
  Page<TemplateRow> templates(const PageRequest& request);

  // A page of planned workflows (kind planned), newest first, narrowed to
  // one repository and to statuses when given.
  Page<std::string> workflow_ids(const std::optional<std::string>& repository_id,
                                 std::span<const MissionStatus> statuses,
                                 const PageRequest& request);
  std::int64_t workflow_count(const std::optional<std::string>& repository_id,
                              std::span<const MissionStatus> statuses);

 private:
  Database& db_;
};

}  // namespace mission::store
