#pragma once
// The typed requests of the planning and templates toolsets (seed
// orchestration-mcp-interface.md), decoded once from the validated
// arguments by daemon/mcp/planning_decoders.cpp. Documents an agent gives
// and that are stored as given (a task plan, a checkpoint's detail) travel
// as their JSON text.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "shared/vocabulary.hpp"

namespace mission::daemon::planning {

// A list's position: the cursor of a previous page, or the seed's offset.
struct ListPosition {
  std::optional<std::int64_t> cursor;
  std::size_t offset = 0;
  std::size_t limit = 20;
};

struct WorkflowCreateRequest {
  std::string name;
  std::string source_type;  // prompt, github_issue, linear, jira or custom
  std::optional<std::string> source_ref;
  std::string source_content;
  std::optional<std::string> repository_path;
  std::int64_t max_parallel_tasks = 1;
  bool auto_create_workspaces = false;
};

struct WorkflowGetRequest {
  std::string id;
  bool include_tasks = false;
  bool include_task_summaries = true;
};

struct WorkflowListRequest {
  std::optional<std::string> repository_path;
  std::vector<std::string> statuses;  // seed 003's words
  ListPosition position;
};

struct PlanTaskInput {
  std::string name;
  std::string description;
  std::int64_t sequence = 0;
  std::optional<std::string> parallel_group;
  std::vector<std::string> depends_on;
  std::optional<std::string> complexity;  // low, medium or high
  std::vector<std::string> files_likely_affected;
  std::vector<std::string> acceptance_criteria;
};

struct WorkflowPlanInput {
  std::string summary;
  std::string approach;
  std::vector<PlanTaskInput> tasks;
  std::vector<std::string> risks;
  std::vector<std::string> assumptions;
};

struct WorkflowSetPlanRequest {
  std::string id;
  WorkflowPlanInput plan;
};

struct WorkflowUpdateStatusRequest {
  std::string id;
  std::string status;  // seed 003's word
  std::optional<std::string> reason;
};

struct WorkflowSetParallelismRequest {
  std::string id;
  std::int64_t max_parallel_tasks = 1;
  std::optional<bool> auto_create_workspaces;
};

struct TaskGetRequest {
  std::string id;
  bool include_checkpoints = false;
  std::optional<std::size_t> checkpoint_limit;
};

struct TaskSetPlanRequest {
  std::string id;
  std::string plan_json;
  std::optional<std::string> context_json;
};

struct TaskUpdateStatusRequest {
  std::string id;
  std::string status;  // seed 003's word
  std::optional<std::string> outcome;
  std::optional<std::string> outcome_detail_json;
  std::optional<std::string> error;
};

// One task added to a planned workflow's plan (the control toolset's
// create_task): its prerequisites named by task name or id.
struct TaskAddRequest {
  std::string workflow_id;
  PlanTaskInput task;
  // Without one, the task joins the plan's last sequence; a lower one than
  // that is refused (it would become an implied prerequisite of tasks
  // already planned).
  bool sequence_given = false;
};

struct TaskReplanRequest {
  std::string id;
  std::string reason;
  std::string new_plan_json;
};

struct CheckpointAddRequest {
  std::string task_id;
  CheckpointType type = CheckpointType::progress;
  std::string summary;
  std::optional<std::string> detail_json;
  std::vector<std::string> files_changed;
};

struct CheckpointListRequest {
  std::string task_id;
  std::vector<CheckpointType> types;
  std::optional<std::int64_t> since_sequence;
  std::optional<std::size_t> limit;
};

struct ContextInclude {
  bool workflow_plan = true;
  bool workflow_summary = true;
  bool prior_task_outcomes = true;
  bool prior_task_full = false;
  bool sibling_status = true;
  bool dependency_outcomes = true;
  bool all_checkpoints = false;
  std::optional<std::size_t> recent_checkpoints;
};

struct TaskLoadContextRequest {
  std::string task_id;
  ContextInclude include;
  std::size_t max_tokens = 0;  // 0: the default
};

struct WorkflowSummaryRequest {
  std::string id;
  bool markdown = false;
};

struct NextTasksRequest {
  std::string workflow_id;
  bool include_failed = true;
  std::size_t limit = 0;
};

struct WorkflowIdRequest {
  std::string workflow_id;
};

struct TaskIdRequest {
  std::string task_id;
};

struct RepositoryRegisterRequest {
  std::string path;
  std::optional<std::string> name;
};

struct RepositoryListRequest {
  ListPosition position;
};

struct RepositoryGetRequest {
  std::string path;
};

struct TemplateVariable {
  std::string name;
  std::string description;
  bool required = false;
  std::optional<std::string> default_value;
};

struct TemplateTask {
  std::string name;
  std::string description;
  std::int64_t sequence = 0;
  std::optional<std::string> parallel_group;
  std::vector<std::string> depends_on;
};

struct TemplateDefinition {
  std::vector<TemplateTask> tasks;
  std::vector<TemplateVariable> variables;
};

struct TemplateCreateRequest {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> from_workflow_id;
  std::optional<TemplateDefinition> definition;
};

struct TemplateListRequest {
  ListPosition position;
};

struct TemplateGetRequest {
  std::string template_id;
};

struct TemplateApplyRequest {
  std::string template_id;  // an id, or a template's name
  std::string workflow_name;
  std::map<std::string, std::string> variables;
  std::optional<std::string> repository_path;
  std::optional<std::int64_t> max_parallel_tasks;
};

}  // namespace mission::daemon::planning
