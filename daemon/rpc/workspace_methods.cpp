#include "daemon/rpc/workspace_methods.hpp"

#include <memory>

#include "daemon/planning/planning_support.hpp"
#include "daemon/runs/run_service.hpp"
#include "daemon/workspaces/workspaces.hpp"
#include "shared/clock.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, WorkspaceListMethodRequest& request) {
  if (j.contains("workflowId")) request.workflow_id = j.at("workflowId").get<std::string>();
  if (j.contains("status")) request.status = j.at("status").get<std::vector<WorkspaceStatus>>();
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, WorkspaceScopeRequest& request) {
  if (j.contains("workflowId")) request.workflow_id = j.at("workflowId").get<std::string>();
}

nlohmann::json handle_workspace_list(MethodContext& context,
                                     const WorkspaceListMethodRequest& request) {
  // Merged first: a branch that reached its base since the last look.
  auto checks = std::make_shared<std::vector<workspaces::MergeCheck>>(
      workspaces::plan_merge_checks(context.services.db, request.workflow_id));
  workspaces::ListRequest list;
  list.workflow_id = request.workflow_id;
  list.statuses = request.status;
  list.page = page_request(request.page, 50);
  context.deferred = DeferredReply{
      [checks] { workspaces::run_merge_checks(*checks); },
      [checks, list](store::Database& db, events::EventBatch&) {
        workspaces::record_merged(db, *checks, unix_ms_now());
        auto page = workspaces::list(db, list);
        nlohmann::json items = nlohmann::json::array();
        for (const auto& row : page.rows) {
          items.push_back(workspaces::workspace_json(row, KeyStyle::camel));
        }
        nlohmann::json out = nlohmann::json::object();
        put_page(out, "workspaces", std::move(items), page.positions, page.more, list.page);
        return out;
      }};
  return nullptr;
}

nlohmann::json handle_workspace_conflicts(MethodContext& context,
                                          const WorkspaceScopeRequest& request) {
  auto scan = std::make_shared<workspaces::ConflictScan>(
      workspaces::plan_conflicts(context.services.db, request.workflow_id));
  context.deferred = DeferredReply{[scan] { workspaces::run_conflicts(*scan); },
                                   [scan](store::Database&, events::EventBatch&) {
                                     return workspaces::conflicts_json(*scan, KeyStyle::camel);
                                   }};
  return nullptr;
}

nlohmann::json handle_workspace_live_conflicts(MethodContext& context,
                                               const WorkspaceScopeRequest& request) {
  if (request.workflow_id)
    planning::require_workflow(context.services.db, *request.workflow_id, "workflowId");
  nlohmann::json conflicts = nlohmann::json::array();
  for (const auto& conflict : context.services.runs.live_conflicts().current(request.workflow_id))
    conflicts.push_back(runs::LiveConflicts::to_json(conflict));
  nlohmann::json out = {{"conflicts", std::move(conflicts)}};
  if (request.workflow_id) out["workflowId"] = *request.workflow_id;
  return out;
}

nlohmann::json handle_workspace_clean(MethodContext& context,
                                      const WorkspaceScopeRequest& request) {
  auto cleanup = std::make_shared<workspaces::Cleanup>(
      workspaces::plan_clean(context.services.db, request.workflow_id));
  context.deferred =
      DeferredReply{[cleanup] { workspaces::run_clean(*cleanup); },
                    [cleanup](store::Database& db, events::EventBatch&) {
                      return workspaces::record_clean(db, *cleanup, unix_ms_now(), KeyStyle::camel);
                    }};
  return nullptr;
}

}  // namespace mission::daemon
