#pragma once
// Control-API methods for workspaces (docs/adr/0019): workspace.list,
// workspace.conflicts, workspace.liveConflicts and workspace.clean, behind
// `mission workspaces`.
// The git work of each runs in the thread pool; the reply follows.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/paging.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon {

struct WorkspaceListMethodRequest {
  std::optional<std::string> workflow_id;
  std::vector<WorkspaceStatus> status;
  ListParams page;
};
void from_json(const nlohmann::json& j, WorkspaceListMethodRequest& request);

struct WorkspaceScopeRequest {
  std::optional<std::string> workflow_id;
};
void from_json(const nlohmann::json& j, WorkspaceScopeRequest& request);

nlohmann::json handle_workspace_list(MethodContext& context,
                                     const WorkspaceListMethodRequest& request);
nlohmann::json handle_workspace_conflicts(MethodContext& context,
                                          const WorkspaceScopeRequest& request);
nlohmann::json handle_workspace_clean(MethodContext& context, const WorkspaceScopeRequest& request);
// The live conflicts between running tasks' worktrees (runs/live_conflicts.hpp):
// {conflicts: [...], workflowId?}. Read from memory, on the loop.
nlohmann::json handle_workspace_live_conflicts(MethodContext& context,
                                               const WorkspaceScopeRequest& request);

}  // namespace mission::daemon
