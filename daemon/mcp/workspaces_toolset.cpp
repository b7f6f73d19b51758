// The workspaces toolset (opt-in, docs/adr/0019): seed 003's workspace
// tools and workspace_conflicts. Git work (creating a worktree, merge
// detection, trial merges) runs in the thread pool.

#include <memory>

#include "daemon/coordination/coordination.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "daemon/mcp/workspaces_decoders.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::mcp {
namespace {

DeferredWork workspace_create(ToolContext& context, const workspaces::CreateRequest& request) {
  auto plan = std::make_shared<workspaces::CreatePlan>(
      workspaces::plan_create(context.db, context.execution_id, request));
  auto made = std::make_shared<git::WorktreeCreated>();
  DeferredWork work;
  work.work = [plan, made] { *made = workspaces::run_create(*plan); };
  work.finish = [plan, made](ToolContext& finishing) {
    store::WorkspaceRow row = workspaces::record_create(finishing.db, *plan, *made, unix_ms_now());
    return workspaces::workspace_json(row, KeyStyle::snake);
  };
  return work;
}

DeferredWork workspace_update(ToolContext& context, const workspaces::UpdateRequest& request) {
  auto plan = std::make_shared<workspaces::UpdatePlan>(
      workspaces::plan_update(context.db, context.execution_id, request));
  DeferredWork work;
  work.work = [plan] { workspaces::run_update(*plan); };
  work.finish = [plan](ToolContext& finishing) {
    workspaces::record_update(finishing.db, *plan, unix_ms_now());
    return nlohmann::json{{"success", true}};
  };
  return work;
}

// Lists after marking those whose branch reached the base merged.
DeferredWork workspace_list(ToolContext& context, const workspaces::ListRequest& request) {
  auto checks = std::make_shared<std::vector<workspaces::MergeCheck>>(
      workspaces::plan_merge_checks(context.db, request.workflow_id));
  DeferredWork work;
  work.work = [checks] { workspaces::run_merge_checks(*checks); };
  work.finish = [checks, request](ToolContext& finishing) {
    workspaces::record_merged(finishing.db, *checks, unix_ms_now());
    auto page = workspaces::list(finishing.db, request);
    nlohmann::json items = nlohmann::json::array();
    for (const auto& row : page.rows)
      items.push_back(workspaces::workspace_json(row, KeyStyle::snake));
    nlohmann::json out = nlohmann::json::object();
    coordination::put_tool_page(out, "workspaces", std::move(items), page.positions, page.more,
                                request.page);
    return out;
  };
  return work;
}

nlohmann::json task_assign_workspace(ToolContext& context,
                                     const workspaces::AssignRequest& request) {
  workspaces::assign(context.db, context.execution_id, request.task_id, request.workspace_id);
  return {{"success", true}, {"task_id", request.task_id}, {"workspace_id", request.workspace_id}};
}

DeferredWork workspace_conflicts(ToolContext& context,
                                 const workspaces::ConflictsRequest& request) {
  auto scan = std::make_shared<workspaces::ConflictScan>(
      workspaces::plan_conflicts(context.db, request.workflow_id));
  DeferredWork work;
  work.work = [scan] { workspaces::run_conflicts(*scan); };
  work.finish = [scan, workflow_id = request.workflow_id](ToolContext& finishing) {
    nlohmann::json out = workspaces::conflicts_json(*scan, KeyStyle::snake);
    // What the daemon found while the agents work, beside this one look at
    // the branches: the same as `mission workspaces conflicts` shows live.
    nlohmann::json live = nlohmann::json::array();
    if (finishing.live_conflicts != nullptr) {
      for (const auto& conflict : finishing.live_conflicts->current(workflow_id))
        live.push_back(runs::LiveConflicts::to_json(conflict, KeyStyle::snake));
    }
    out["live_conflicts"] = std::move(live);
    return out;
  };
  return work;
}

}  // namespace

std::span<const ToolRow> workspace_tools() {
  using namespace workspaces;
  static constexpr ToolRow kTools[] = {
      {"workspace_create", ToolMode::deferred, true,
       deferred<CreateRequest, mcp::workspace_create>},
      {"workspace_update", ToolMode::deferred, true,
       deferred<UpdateRequest, mcp::workspace_update>},
      {"workspace_list", ToolMode::deferred, false, deferred<ListRequest, mcp::workspace_list>},
      {"task_assign_workspace", ToolMode::immediate, true,
       immediate<AssignRequest, mcp::task_assign_workspace>},
      {"workspace_conflicts", ToolMode::deferred, false,
       deferred<ConflictsRequest, mcp::workspace_conflicts>},
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
