#include "daemon/rpc/execution_run_methods.hpp"

#include "daemon/daemon.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/execution/marker_instructions.hpp"
#include "daemon/store/observation_repository.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, ExecutionLaunchRequest& request) {
  request.spec = decode_create_spec(j, execution::kDeliveryMarker);
  request.spec.kind = std::string(execution::kKindLaunched);
  request.spec.state = std::string(execution::kLaunching);
  request.env = j.value("env", std::map<std::string, std::string>{});
}

void from_json(const nlohmann::json& j, ExecutionStopRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.force = j.value("force", false);
}

void from_json(const nlohmann::json& j, ExecutionLogsRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("after")) request.after = j.at("after").get<std::uint64_t>();
  if (j.contains("cursor")) request.cursor = j.at("cursor").get<std::uint64_t>();
  request.limit = j.value("limit", std::size_t{100});
}

void from_json(const nlohmann::json& j, ExecutionObservationsRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.after = j.value("after", std::int64_t{0});
  request.limit = j.value("limit", std::size_t{1000});
}

nlohmann::json handle_execution_launch(MethodContext& context, const ExecutionLaunchRequest& request) {
  Daemon& daemon = context.daemon;
  const execution::CreateSpec& spec = request.spec;
  auto created = execution::AgentExecutionRegistry(daemon.database()).create(spec);

  std::map<std::string, std::string> env = request.env;
  env["MISSION_AGENT_EXECUTION_ID"] = created.row.id;
  env["MISSION_SOCKET"] = daemon.paths().socket.string();
  if (created.token) {
    env["MISSION_MCP_TOKEN"] = *created.token;
  } else {
    env.erase("MISSION_MCP_TOKEN");  // never one from another execution
  }
  std::vector<std::string> environment;
  for (const auto& [name, value] : env) environment.push_back(name + "=" + value);

  try {
    daemon.launch(created.row.id, spec.cwd, spec.command, environment,
                  spec.delivery == execution::kDeliveryMarker);
  } catch (const MissionError&) {
    execution::publish_execution(daemon, "execution.created", created.row.id);
    throw;
  }
  execution::publish_execution(daemon, "execution.created", created.row.id);
  auto row = execution::AgentExecutionRegistry(daemon.database()).require(created.row.id);
  return {{"execution", execution::execution_json(daemon.database(), row)}};
}

nlohmann::json handle_execution_stop(MethodContext& context, const ExecutionStopRequest& request) {
  Daemon& daemon = context.daemon;
  execution::AgentExecutionRegistry registry(daemon.database());
  store::ExecutionRow row = registry.require(request.id);
  if (execution::is_final_state(row.state)) {
    return {{"stopping", false}, {"execution", execution::execution_json(daemon.database(), row)}};
  }
  if (auto* runner = daemon.runner(request.id)) {
    runner->stop(request.force);
    return {{"stopping", true}, {"execution", execution::execution_json(daemon.database(), row)}};
  }
  // Nothing of ours runs for it (created or external): it ends here.
  row.state = std::string(execution::kCancelled);
  row.ended_at = row.updated_at = execution::unix_ms_now();
  store::ExecutionRepository(daemon.database()).update(row);
  execution::publish_execution(daemon, "execution.updated", row.id);
  return {{"stopping", false}, {"execution", execution::execution_json(daemon.database(), row)}};
}

nlohmann::json handle_execution_logs(MethodContext& context, const ExecutionLogsRequest& request) {
  Daemon& daemon = context.daemon;
  store::ExecutionRow row = execution::AgentExecutionRegistry(daemon.database()).require(request.id);
  execution::LogPage page = execution::read_execution_log(
      daemon.paths().state_dir / "logs", request.id, {request.after, request.cursor, request.limit});
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& line : page.lines) {
    lines.push_back({{"n", line.number},
                     {"stream", line.stream == 'e' ? "stderr" : "stdout"},
                     {"text", line.text}});
  }
  nlohmann::json result = {{"lines", std::move(lines)},
                           {"lastLine", page.last_line},
                           {"state", row.state},
                           {"final", execution::is_final_state(row.state)}};
  if (page.next_cursor) result["nextCursor"] = *page.next_cursor;
  return result;
}

nlohmann::json handle_execution_observations(MethodContext& context,
                                             const ExecutionObservationsRequest& request) {
  store::Database& db = context.daemon.database();
  execution::AgentExecutionRegistry(db).require(request.id);
  nlohmann::json observations = nlohmann::json::array();
  for (const auto& row : store::ObservationRepository(db).list(request.id, request.after, request.limit)) {
    observations.push_back(execution::observation_json(row));
  }
  return {{"observations", std::move(observations)}};
}

nlohmann::json handle_execution_instructions(MethodContext& context, const ExecutionIdRequest& request) {
  store::ExecutionRow row = execution::AgentExecutionRegistry(context.daemon.database()).require(request.id);
  nlohmann::json descriptor = nlohmann::json::parse(row.descriptor, nullptr, false);
  return {{"agentExecutionId", row.id},
          {"delivery", row.delivery},
          {"text", execution::marker_instructions(row.id, descriptor)}};
}

}  // namespace mission::daemon
