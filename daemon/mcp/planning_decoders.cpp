#include "daemon/mcp/planning_decoders.hpp"

#include "daemon/mcp/tracking_decoders.hpp"
#include "shared/error_code.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon::planning {
namespace {

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

std::vector<std::string> texts(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::vector<std::string>>();
}

std::optional<std::string> document(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::size_t> count(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::size_t>();
}

// A nested document the tool publishes as a bare object (to keep tools/list
// small) is checked here against its full schema in schemas/tools/fields.
void require_valid(const char* schema, const nlohmann::json& value, const std::string& field) {
  auto violations = SchemaRegistry::embedded().validate(schema, value);
  if (violations.empty()) return;
  throw MissionError(ErrorCode::invalid_argument,
                     field + violations.front().path + ": " + violations.front().message,
                     std::string("fix that field; its schema is mission:") + schema,
                     {{"field", field}});
}

}  // namespace

ListPosition list_position(const nlohmann::json& j, std::size_t default_limit) {
  ListPosition position;
  if (auto cursor = text(j, "cursor"))
    position.cursor = tracking::parse_position(*cursor, "cursor");
  position.offset = count(j, "offset").value_or(0);
  position.limit = count(j, "limit").value_or(default_limit);
  return position;
}

void from_json(const nlohmann::json& j, WorkflowCreateRequest& request) {
  request.name = j.at("name").get<std::string>();
  request.source_type = j.at("source_type").get<std::string>();
  request.source_ref = text(j, "source_ref");
  request.source_content = j.at("source_content").get<std::string>();
  request.repository_path = text(j, "repository_path");
  request.max_parallel_tasks = j.value("max_parallel_tasks", std::int64_t{1});
  request.auto_create_workspaces = j.value("auto_create_workspaces", false);
}

void from_json(const nlohmann::json& j, WorkflowGetRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.include_tasks = j.value("include_tasks", false);
  request.include_task_summaries = j.value("include_task_summaries", true);
}

void from_json(const nlohmann::json& j, WorkflowListRequest& request) {
  request.repository_path = text(j, "repository_path");
  request.statuses = texts(j, "status");
  request.position = list_position(j, 20);
}

PlanTaskInput plan_task_input(const nlohmann::json& entry) {
  PlanTaskInput task;
  task.name = entry.at("name").get<std::string>();
  task.description = entry.at("description").get<std::string>();
  task.sequence = entry.value("sequence", std::int64_t{0});
  task.parallel_group = text(entry, "parallel_group");
  task.depends_on = texts(entry, "depends_on");
  task.complexity = text(entry, "estimated_complexity");
  task.files_likely_affected = texts(entry, "files_likely_affected");
  task.acceptance_criteria = texts(entry, "acceptance_criteria");
  return task;
}

void from_json(const nlohmann::json& j, WorkflowSetPlanRequest& request) {
  request.id = j.at("id").get<std::string>();
  const nlohmann::json& plan = j.at("plan");
  request.plan.summary = plan.at("summary").get<std::string>();
  request.plan.approach = plan.at("approach").get<std::string>();
  request.plan.risks = texts(plan, "risks");
  request.plan.assumptions = texts(plan, "assumptions");
  request.plan.tasks.reserve(plan.at("tasks").size());
  std::size_t index = 0;
  for (const auto& entry : plan.at("tasks")) {
    require_valid("tools/fields/plan_task", entry, "plan.tasks[" + std::to_string(index++) + "]");
    request.plan.tasks.push_back(plan_task_input(entry));
  }
}

void from_json(const nlohmann::json& j, TaskAddRequest& request) {
  request.workflow_id = j.at("workflow_id").get<std::string>();
  request.task = plan_task_input(j);
  request.sequence_given = j.contains("sequence");
}

void from_json(const nlohmann::json& j, WorkflowUpdateStatusRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.status = j.at("status").get<std::string>();
  request.reason = text(j, "reason");
}

void from_json(const nlohmann::json& j, WorkflowSetParallelismRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.max_parallel_tasks = j.at("max_parallel_tasks").get<std::int64_t>();
  if (j.contains("auto_create_workspaces"))
    request.auto_create_workspaces = j.at("auto_create_workspaces").get<bool>();
}

void from_json(const nlohmann::json& j, TaskGetRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.include_checkpoints = j.value("include_checkpoints", false);
  request.checkpoint_limit = count(j, "checkpoint_limit");
}

void from_json(const nlohmann::json& j, TaskSetPlanRequest& request) {
  request.id = j.at("id").get<std::string>();
  require_valid("tools/fields/task_plan", j.at("plan"), "plan");
  request.plan_json = *document(j, "plan");
  request.context_json = document(j, "context");
}

void from_json(const nlohmann::json& j, TaskUpdateStatusRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.status = j.at("status").get<std::string>();
  request.outcome = text(j, "outcome");
  request.outcome_detail_json = document(j, "outcome_detail");
  request.error = text(j, "error");
}

void from_json(const nlohmann::json& j, TaskReplanRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.reason = j.at("reason").get<std::string>();
  require_valid("tools/fields/task_plan", j.at("new_plan"), "new_plan");
  request.new_plan_json = *document(j, "new_plan");
}

void from_json(const nlohmann::json& j, CheckpointAddRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.type = j.at("type").get<CheckpointType>();
  request.summary = j.at("summary").get<std::string>();
  request.detail_json = document(j, "detail");
  request.files_changed = texts(j, "files_changed");
}

void from_json(const nlohmann::json& j, CheckpointListRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  if (j.contains("type")) request.types = j.at("type").get<std::vector<CheckpointType>>();
  if (j.contains("since_sequence"))
    request.since_sequence = j.at("since_sequence").get<std::int64_t>();
  request.limit = count(j, "limit");
}

void from_json(const nlohmann::json& j, TaskLoadContextRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  if (j.contains("include")) {
    const nlohmann::json& include = j.at("include");
    require_valid("tools/fields/context_include", include, "include");
    ContextInclude& flags = request.include;
    flags.workflow_plan = include.value("workflow_plan", true);
    flags.workflow_summary = include.value("workflow_summary", true);
    flags.prior_task_outcomes = include.value("prior_task_outcomes", true);
    flags.prior_task_full = include.value("prior_task_full", false);
    flags.sibling_status = include.value("sibling_status", true);
    flags.dependency_outcomes = include.value("dependency_outcomes", true);
    flags.all_checkpoints = include.value("all_checkpoints", false);
    flags.recent_checkpoints = count(include, "recent_checkpoints");
  }
  request.max_tokens = count(j, "max_tokens").value_or(0);
}

void from_json(const nlohmann::json& j, WorkflowSummaryRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.markdown = text(j, "format").value_or("json") == "markdown";
}

void from_json(const nlohmann::json& j, NextTasksRequest& request) {
  request.workflow_id = j.at("workflow_id").get<std::string>();
  request.include_failed = j.value("include_failed", true);
  request.limit = count(j, "limit").value_or(0);
}

void from_json(const nlohmann::json& j, WorkflowIdRequest& request) {
  request.workflow_id = j.at("workflow_id").get<std::string>();
}

void from_json(const nlohmann::json& j, TaskIdRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
}

void from_json(const nlohmann::json& j, RepositoryRegisterRequest& request) {
  request.path = j.at("path").get<std::string>();
  request.name = text(j, "name");
}

void from_json(const nlohmann::json& j, RepositoryListRequest& request) {
  request.position = list_position(j, 50);
}

void from_json(const nlohmann::json& j, RepositoryGetRequest& request) {
  request.path = j.at("path").get<std::string>();
}

void from_json(const nlohmann::json& j, TemplateCreateRequest& request) {
  request.name = j.at("name").get<std::string>();
  request.description = text(j, "description");
  request.from_workflow_id = text(j, "from_workflow_id");
  if (j.contains("template")) {
    const nlohmann::json& definition = j.at("template");
    require_valid("tools/fields/template_definition", definition, "template");
    TemplateDefinition out;
    for (const auto& entry : definition.at("tasks")) {
      TemplateTask task;
      task.name = entry.at("name").get<std::string>();
      task.description = entry.at("description").get<std::string>();
      task.sequence = entry.at("sequence").get<std::int64_t>();
      task.parallel_group = text(entry, "parallel_group");
      task.depends_on = texts(entry, "depends_on");
      out.tasks.push_back(std::move(task));
    }
    if (definition.contains("variables")) {
      for (const auto& entry : definition.at("variables")) {
        TemplateVariable variable;
        variable.name = entry.at("name").get<std::string>();
        variable.description = entry.value("description", std::string());
        variable.required = entry.value("required", false);
        variable.default_value = text(entry, "default");
        out.variables.push_back(std::move(variable));
      }
    }
    request.definition = std::move(out);
  }
}

void from_json(const nlohmann::json& j, TemplateListRequest& request) {
  request.position = list_position(j, 50);
}

void from_json(const nlohmann::json& j, TemplateGetRequest& request) {
  request.template_id = j.at("template_id").get<std::string>();
}

void from_json(const nlohmann::json& j, TemplateApplyRequest& request) {
  request.template_id = j.at("template_id").get<std::string>();
  request.workflow_name = j.at("workflow_name").get<std::string>();
  if (j.contains("variables"))
    request.variables = j.at("variables").get<std::map<std::string, std::string>>();
  request.repository_path = text(j, "repository_path");
  if (j.contains("max_parallel_tasks"))
    request.max_parallel_tasks = j.at("max_parallel_tasks").get<std::int64_t>();
}

}  // namespace mission::daemon::planning
