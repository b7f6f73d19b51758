#pragma once
// Control-API methods about what agents track: mission.list, mission.get,
// mission.context, mission.check and issue.resolve, behind `mission
// missions`, `tasks`, `context`, `report`, `check` and `resolve`.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/tracking/mission_check.hpp"

namespace mission::daemon {

struct MissionListRequest {
  std::optional<std::string> cwd;  // only missions in or below it
  std::size_t limit = 0;
};
void from_json(const nlohmann::json& j, MissionListRequest& request);

struct MissionIdRequest {
  std::string id;
};
void from_json(const nlohmann::json& j, MissionIdRequest& request);

struct MissionCheckRequest {
  std::optional<std::string> mission_id;
  std::optional<std::string> cwd;
  tracking::CheckRules rules;
};
void from_json(const nlohmann::json& j, MissionCheckRequest& request);

struct IssueResolveRequest {
  std::string id;
  std::optional<std::string> note;
};
void from_json(const nlohmann::json& j, IssueResolveRequest& request);

nlohmann::json handle_mission_list(MethodContext& context, const MissionListRequest& request);
nlohmann::json handle_mission_get(MethodContext& context, const MissionIdRequest& request);
// params are get_context's arguments, validated by its tool schema.
nlohmann::json handle_mission_context(MethodContext& context, const nlohmann::json& params);
nlohmann::json handle_mission_check(MethodContext& context, const MissionCheckRequest& request);
nlohmann::json handle_issue_resolve(MethodContext& context, const IssueResolveRequest& request);

}  // namespace mission::daemon
