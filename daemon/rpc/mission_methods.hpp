#pragma once
// Control-API methods about what agents track: mission.list, mission.get,
// mission.tasks, mission.journal, mission.context, mission.check,
// mission.export, task.changes and issue.resolve, behind `mission missions`,
// `tasks`, `context`, `report`, `check`, `export` and `resolve`. Answers are
// camelCase.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/paging.hpp"
#include "daemon/tracking/mission_check.hpp"
#include "daemon/tracking/requests.hpp"

namespace mission::daemon {

struct MissionListRequest {
  std::optional<std::string> cwd;  // only missions in or below it
  ListParams page;
};
void from_json(const nlohmann::json& j, MissionListRequest& request);

struct MissionIdRequest {
  std::string id;
};
void from_json(const nlohmann::json& j, MissionIdRequest& request);

// mission.export: the whole record, or with `after` one page of it ("" for
// the first page, then each page's afterCursor).
struct MissionExportRequest {
  std::string id;
  std::optional<std::string> after;
};
void from_json(const nlohmann::json& j, MissionExportRequest& request);

// A page of one mission's tasks, or of its decisions, issues or milestones.
struct MissionPageRequest {
  std::string id;
  std::string kind;  // mission.journal: decisions, issues or milestones
  ListParams page;
};
void from_json(const nlohmann::json& j, MissionPageRequest& request);

struct MissionContextRequest {
  tracking::GetContextRequest context;
};
void from_json(const nlohmann::json& j, MissionContextRequest& request);

struct MissionCheckRequest {
  std::optional<std::string> mission_id;
  std::optional<std::string> cwd;
  tracking::CheckRules rules;
};
void from_json(const nlohmann::json& j, MissionCheckRequest& request);

struct TaskChangesMethodRequest {
  tracking::TaskChangesRequest changes;
};
void from_json(const nlohmann::json& j, TaskChangesMethodRequest& request);

struct IssueResolveRequest {
  std::string id;
  std::optional<std::string> note;
};
void from_json(const nlohmann::json& j, IssueResolveRequest& request);

nlohmann::json handle_mission_list(MethodContext& context, const MissionListRequest& request);
nlohmann::json handle_mission_export(MethodContext& context, const MissionExportRequest& request);
nlohmann::json handle_mission_get(MethodContext& context, const MissionIdRequest& request);
nlohmann::json handle_mission_tasks(MethodContext& context, const MissionPageRequest& request);
nlohmann::json handle_mission_journal(MethodContext& context, const MissionPageRequest& request);
nlohmann::json handle_mission_context(MethodContext& context, const MissionContextRequest& request);
nlohmann::json handle_mission_check(MethodContext& context, const MissionCheckRequest& request);
nlohmann::json handle_task_changes(MethodContext& context, const TaskChangesMethodRequest& request);
nlohmann::json handle_issue_resolve(MethodContext& context, const IssueResolveRequest& request);

}  // namespace mission::daemon
