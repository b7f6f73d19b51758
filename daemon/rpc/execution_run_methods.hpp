#pragma once
// Control-API methods that run and follow launched executions:
// execution.launch, execution.stop, execution.logs, execution.observations,
// execution.instructions.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/execution/agent_launch.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/execution_methods.hpp"
#include "daemon/rpc/paging.hpp"

namespace mission::daemon {
namespace execution {
void from_json(const nlohmann::json& j, AgentLaunchRequest& request);
}

using ExecutionLaunchRequest = execution::AgentLaunchRequest;

struct ExecutionStopRequest {
  std::string id;
  bool force = false;
};
void from_json(const nlohmann::json& j, ExecutionStopRequest& request);

struct ExecutionLogsRequest {
  std::string id;
  std::optional<std::uint64_t> after;
  std::optional<std::uint64_t> cursor;
  std::size_t limit = 100;
};
void from_json(const nlohmann::json& j, ExecutionLogsRequest& request);

struct ExecutionObservationsRequest {
  std::string id;
  ListParams page;
};
void from_json(const nlohmann::json& j, ExecutionObservationsRequest& request);

nlohmann::json handle_execution_launch(MethodContext& context,
                                       const ExecutionLaunchRequest& request);
nlohmann::json handle_execution_stop(MethodContext& context, const ExecutionStopRequest& request);
nlohmann::json handle_execution_logs(MethodContext& context, const ExecutionLogsRequest& request);
nlohmann::json handle_execution_observations(MethodContext& context,
                                             const ExecutionObservationsRequest& request);
nlohmann::json handle_execution_instructions(MethodContext& context,
                                             const ExecutionIdRequest& request);

}  // namespace mission::daemon
