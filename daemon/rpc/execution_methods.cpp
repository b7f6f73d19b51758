#include "daemon/rpc/execution_methods.hpp"

#include "daemon/daemon.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

execution::CreateSpec decode_create_spec(const nlohmann::json& j, std::string_view default_delivery) {
  execution::CreateSpec spec;
  spec.adapter = j.value("adapter", "generic");
  spec.delivery = j.value("delivery", std::string(default_delivery));
  spec.cwd = j.at("cwd").get<std::string>();
  spec.command = j.value("command", std::vector<std::string>{});
  spec.toolsets = j.value("toolsets", std::vector<std::string>{});
  return spec;
}

void from_json(const nlohmann::json& j, ExecutionCreateRequest& request) {
  // The schema requires delivery here.
  request.spec = decode_create_spec(j, "");
  request.spec.kind = std::string(execution::kKindExternal);
}

void from_json(const nlohmann::json& j, ExecutionListRequest& request) {
  if (j.contains("state")) request.state = j.at("state").get<std::string>();
  request.limit = j.value("limit", limits::kDefaultExecutionListLimit);
}

void from_json(const nlohmann::json& j, ExecutionIdRequest& request) {
  request.id = j.at("id").get<std::string>();
}

nlohmann::json handle_execution_create(MethodContext& context, const ExecutionCreateRequest& request) {
  auto created = execution::AgentExecutionRegistry(context.daemon.database()).create(request.spec);
  execution::publish_execution(context.daemon, "execution.created", created.row.id);
  nlohmann::json result = {{"execution", execution::execution_json(context.daemon.database(), created.row)}};
  if (created.token) result["token"] = *created.token;
  return result;
}

nlohmann::json handle_execution_list(MethodContext& context, const ExecutionListRequest& request) {
  store::Database& db = context.daemon.database();
  store::ExecutionRepository executions(db);
  auto rows = request.state ? executions.list_in_state(*request.state, request.limit)
                            : executions.list(request.limit);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : rows) list.push_back(execution::execution_json(db, row));
  return {{"executions", std::move(list)}};
}

nlohmann::json handle_execution_get(MethodContext& context, const ExecutionIdRequest& request) {
  store::Database& db = context.daemon.database();
  auto row = execution::AgentExecutionRegistry(db).require(request.id);
  return {{"execution", execution::execution_json(db, row)}};
}

}  // namespace mission::daemon
