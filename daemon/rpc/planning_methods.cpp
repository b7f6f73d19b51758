#include "daemon/rpc/planning_methods.hpp"

#include "daemon/planning/workflows.hpp"

namespace mission::daemon {
namespace {

constexpr KeyStyle kCamel = KeyStyle::camel;

planning::ListPosition position_of(const nlohmann::json& j) {
  planning::ListPosition position;
  if (j.contains("cursor")) position.cursor = j.at("cursor").get<std::int64_t>();
  position.limit = j.value("limit", std::size_t{0});
  return position;
}

}  // namespace

void from_json(const nlohmann::json& j, WorkflowListMethodRequest& request) {
  if (j.contains("status")) request.list.statuses = j.at("status").get<std::vector<std::string>>();
  if (j.contains("repositoryPath")) request.list.repository_path = j.at("repositoryPath").get<std::string>();
  request.list.position = position_of(j);
}

void from_json(const nlohmann::json& j, WorkflowMethodRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.limit = j.value("limit", std::size_t{0});
}

void from_json(const nlohmann::json& j, TemplateListMethodRequest& request) {
  request.list.position = position_of(j);
}

nlohmann::json handle_workflow_list(MethodContext& context, const WorkflowListMethodRequest& request) {
  return planning::workflow_list(context.services.db, request.list, kCamel);
}

nlohmann::json handle_workflow_get(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_get(context.services.db, context.services.mcp.plans, {request.id, true, true}, kCamel);
}

nlohmann::json handle_workflow_graph(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_graph(context.services.db, context.services.mcp.plans, request.id, kCamel);
}

nlohmann::json handle_workflow_next(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_next_tasks(context.services.db, context.services.mcp.plans,
                                       {request.id, true, request.limit}, kCamel);
}

nlohmann::json handle_workflow_progress(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::workflow_progress(context.services.db, context.services.mcp.plans, {request.id}, kCamel);
}

nlohmann::json handle_template_list(MethodContext& context, const TemplateListMethodRequest& request) {
  return planning::template_list(context.services.db, request.list, kCamel);
}

nlohmann::json handle_template_get(MethodContext& context, const WorkflowMethodRequest& request) {
  return planning::template_get(context.services.db, {request.id}, kCamel);
}

}  // namespace mission::daemon
