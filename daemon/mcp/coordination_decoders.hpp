#pragma once
// Decoding of the coordination tools' validated arguments (seed 003's
// snake_case names) into their typed requests. Declared in the requests'
// namespace so nlohmann's get<Request>() finds them.

#include <nlohmann/json.hpp>

#include "daemon/coordination/requests.hpp"

namespace mission::daemon::coordination {

void from_json(const nlohmann::json& j, AgentRegisterRequest& request);
void from_json(const nlohmann::json& j, AgentHeartbeatRequest& request);
void from_json(const nlohmann::json& j, AgentUpdateRequest& request);
void from_json(const nlohmann::json& j, AgentIdRequest& request);
void from_json(const nlohmann::json& j, AgentListRequest& request);
void from_json(const nlohmann::json& j, MessageSendRequest& request);
void from_json(const nlohmann::json& j, MessageBroadcastRequest& request);
void from_json(const nlohmann::json& j, MessageListRequest& request);
void from_json(const nlohmann::json& j, MessageGetRequest& request);
void from_json(const nlohmann::json& j, MessageIdsRequest& request);
void from_json(const nlohmann::json& j, MessageCountRequest& request);
void from_json(const nlohmann::json& j, MessageWaitRequest& request);
void from_json(const nlohmann::json& j, TaskClaimRequest& request);
void from_json(const nlohmann::json& j, TaskReleaseRequest& request);
void from_json(const nlohmann::json& j, TaskAvailableRequest& request);

}  // namespace mission::daemon::coordination
