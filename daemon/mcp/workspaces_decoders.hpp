#pragma once
// Decoding of the workspace tools' validated arguments into their typed
// requests (daemon/workspaces/workspaces.hpp).

#include <nlohmann/json.hpp>

#include "daemon/workspaces/workspaces.hpp"

namespace mission::daemon::workspaces {

void from_json(const nlohmann::json& j, CreateRequest& request);
void from_json(const nlohmann::json& j, UpdateRequest& request);
void from_json(const nlohmann::json& j, ListRequest& request);
void from_json(const nlohmann::json& j, AssignRequest& request);
void from_json(const nlohmann::json& j, ConflictsRequest& request);

}  // namespace mission::daemon::workspaces
