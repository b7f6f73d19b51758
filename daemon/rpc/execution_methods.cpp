#include "daemon/rpc/execution_methods.hpp"

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_reference.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

std::vector<Toolset> decode_toolsets(const nlohmann::json& names) {
  std::vector<Toolset> toolsets;
  for (const auto& name : names) {
    const std::string text = name.get<std::string>();
    auto toolset = parse_name<Toolset>(text);
    if (!toolset) {
      throw MissionError(ErrorCode::invalid_argument, "unknown toolset '" + text + "'",
                         "use toolsets among " + names_list<Toolset>(), {{"toolset", text}});
    }
    toolsets.push_back(*toolset);
  }
  return toolsets;
}

execution::CreateSpec decode_create_spec(const nlohmann::json& j, Delivery default_delivery) {
  execution::CreateSpec spec;
  spec.adapter = j.value("adapter", "generic");
  spec.delivery = j.contains("delivery") ? j.at("delivery").get<Delivery>() : default_delivery;
  spec.cwd = j.at("cwd").get<std::string>();
  spec.command = j.value("command", std::vector<std::string>{});
  if (j.contains("toolsets")) spec.toolsets = decode_toolsets(j.at("toolsets"));
  if (j.contains("name")) spec.name = j.at("name").get<std::string>();
  return spec;
}

void from_json(const nlohmann::json& j, ExecutionCreateRequest& request) {
  // The schema requires delivery here.
  request.spec = decode_create_spec(j, Delivery::stdout_marker);
  request.spec.kind = ExecutionKind::external;
}

void from_json(const nlohmann::json& j, ExecutionListRequest& request) {
  if (j.contains("state")) request.state = j.at("state").get<ExecutionState>();
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, ExecutionIdRequest& request) {
  request.id = j.at("id").get<std::string>();
}

nlohmann::json handle_execution_create(MethodContext& context,
                                       const ExecutionCreateRequest& request) {
  store::Database& db = context.services.db;
  auto created = execution::AgentExecutionRegistry(db).create(request.spec);
  execution::add_execution_event(context.events, db, execution::kExecutionCreated, created.row.id);
  nlohmann::json result = {{"execution", execution::execution_json(db, created.row)}};
  if (created.token) result["token"] = *created.token;
  return result;
}

nlohmann::json handle_execution_list(MethodContext& context, const ExecutionListRequest& request) {
  store::Database& db = context.services.db;
  store::PageRequest wanted = page_request(request.page, limits::kDefaultExecutionListLimit);
  auto page = store::ExecutionRepository(db).page(request.state, wanted);
  nlohmann::json out = nlohmann::json::object();
  nlohmann::json items = execution::executions_json(db, page.rows);
  // Which run on a terminal of this daemon: a viewer can watch them.
  for (auto& item : items) {
    item["terminal"] = context.services.launcher.terminal(item.value("id", "")) != nullptr;
  }
  put_page(out, "executions", std::move(items), page.positions, page.more, wanted);
  return out;
}

void from_json(const nlohmann::json& j, ExecutionResolveRequest& request) {
  request.reference = j.at("reference").get<std::string>();
}

nlohmann::json handle_execution_resolve(MethodContext& context,
                                        const ExecutionResolveRequest& request) {
  execution::ResolvedExecution resolved =
      execution::resolve_execution_reference(context.services.db, request.reference);
  return {{"executionId", resolved.id}, {"matchedBy", resolved.matched_by}};
}

nlohmann::json handle_execution_get(MethodContext& context, const ExecutionIdRequest& request) {
  store::Database& db = context.services.db;
  auto row = execution::AgentExecutionRegistry(db).require(request.id);
  return {{"execution", execution::execution_json(db, row)}};
}

}  // namespace mission::daemon
