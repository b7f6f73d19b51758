#include "daemon/mcp/workspaces_decoders.hpp"

#include <algorithm>

#include "daemon/mcp/tracking_decoders.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::workspaces {
namespace {

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

}  // namespace

void from_json(const nlohmann::json& j, CreateRequest& request) {
  request.workflow_id = j.at("workflow_id").get<std::string>();
  request.path = text(j, "path");
  request.branch = text(j, "branch");
  request.base_branch = text(j, "base_branch");
  if (j.contains("task_ids")) request.task_ids = j.at("task_ids").get<std::vector<std::string>>();
}

void from_json(const nlohmann::json& j, UpdateRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (auto status = text(j, "status")) request.status = parse_name<WorkspaceStatus>(*status);
  request.merge_commit = text(j, "merge_commit");
}

void from_json(const nlohmann::json& j, ListRequest& request) {
  request.workflow_id = text(j, "workflow_id");
  if (j.contains("status")) {
    for (const auto& item : j.at("status")) {
      auto status = parse_name<WorkspaceStatus>(item.get<std::string>());
      if (!status) {
        throw MissionError(ErrorCode::invalid_argument,
                           "status " + item.dump() + " is not a workspace status",
                           "use " + names_list<WorkspaceStatus>(), {{"field", "status"}});
      }
      request.statuses.push_back(*status);
    }
  }
  if (j.contains("cursor") && j.contains("after_cursor")) {
    throw MissionError(
        ErrorCode::mixed_pagination, "cursor and after_cursor were both given",
        "pass cursor (next_cursor of an answer) for older items, or after_cursor for newer ones");
  }
  if (auto cursor = text(j, "cursor"))
    request.page.cursor = tracking::parse_position(*cursor, "cursor");
  if (auto after = text(j, "after_cursor"))
    request.page.after = tracking::parse_position(*after, "after_cursor");
  request.page.limit =
      std::clamp<std::size_t>(j.value("limit", std::size_t{50}), 1, limits::kMaxPageItems);
}

void from_json(const nlohmann::json& j, AssignRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.workspace_id = j.at("workspace_id").get<std::string>();
}

void from_json(const nlohmann::json& j, ConflictsRequest& request) {
  request.workflow_id = text(j, "workflow_id");
}

}  // namespace mission::daemon::workspaces
