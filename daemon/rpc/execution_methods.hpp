#pragma once
// Control-API methods about AgentExecutions: execution.create,
// execution.list, execution.get.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct ExecutionCreateRequest {
  std::string adapter = "generic";
  std::string delivery;
  std::string cwd;
  std::vector<std::string> command;
  std::vector<std::string> toolsets;
};
void from_json(const nlohmann::json& j, ExecutionCreateRequest& request);

struct ExecutionListRequest {
  std::optional<std::string> state;
  std::size_t limit = 0;
};
void from_json(const nlohmann::json& j, ExecutionListRequest& request);

// Methods whose only parameter is the execution's id.
struct ExecutionIdRequest {
  std::string id;
};
void from_json(const nlohmann::json& j, ExecutionIdRequest& request);

nlohmann::json handle_execution_create(MethodContext& context, const ExecutionCreateRequest& request);
nlohmann::json handle_execution_list(MethodContext& context, const ExecutionListRequest& request);
nlohmann::json handle_execution_get(MethodContext& context, const ExecutionIdRequest& request);

}  // namespace mission::daemon
