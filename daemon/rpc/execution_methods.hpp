#pragma once
// Control-API methods about AgentExecutions: execution.create,
// execution.list, execution.get.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/execution/execution_registry.hpp"
#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/paging.hpp"

namespace mission::daemon {

// The fields execution.create and execution.launch share (adapter,
// delivery, cwd, command, toolsets), decoded into a CreateSpec; the handler
// sets the kind and the initial state. Unknown toolsets are refused with
// the valid names.
execution::CreateSpec decode_create_spec(const nlohmann::json& j, Delivery default_delivery);

// Toolset names, each checked against the vocabulary.
std::vector<Toolset> decode_toolsets(const nlohmann::json& names);

struct ExecutionCreateRequest {
  execution::CreateSpec spec;
};
void from_json(const nlohmann::json& j, ExecutionCreateRequest& request);

struct ExecutionListRequest {
  std::optional<ExecutionState> state;
  ListParams page;
};
void from_json(const nlohmann::json& j, ExecutionListRequest& request);

// Methods whose only parameter is the execution's id.
struct ExecutionIdRequest {
  std::string id;
};
void from_json(const nlohmann::json& j, ExecutionIdRequest& request);

// An execution named as people name it: id, prefix, name or @last.
struct ExecutionResolveRequest {
  std::string reference;
};
void from_json(const nlohmann::json& j, ExecutionResolveRequest& request);
nlohmann::json handle_execution_resolve(MethodContext& context,
                                        const ExecutionResolveRequest& request);

nlohmann::json handle_execution_create(MethodContext& context,
                                       const ExecutionCreateRequest& request);
nlohmann::json handle_execution_list(MethodContext& context, const ExecutionListRequest& request);
nlohmann::json handle_execution_get(MethodContext& context, const ExecutionIdRequest& request);

}  // namespace mission::daemon
