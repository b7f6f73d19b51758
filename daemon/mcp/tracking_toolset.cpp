// The tracking, legacy and inspect toolsets: missions, workflows, phases,
// tasks, decisions, issues, milestones and change sets (daemon/tracking/).
// This file decodes each tool's validated arguments into its typed request
// (daemon/tracking/requests.hpp) and lists the rows; start_task and
// complete_task hand their git work to the thread pool.

#include <memory>

#include "daemon/git/change_set.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "daemon/mcp/tracking_decoders.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracking_events.hpp"

namespace mission::daemon::mcp {
namespace {

using tracking::Caller;

Caller caller_of(ToolContext& context) {
  return {context.db, context.execution_id, context.events};
}

template <class Request, nlohmann::json (*Function)(Caller&, const Request&)>
nlohmann::json tracked(ToolContext& context, const Request& request) {
  Caller caller = caller_of(context);
  return Function(caller, request);
}

// Taken on the loop before the work is queued: what the tree's watcher
// knows changed up to this call (null when no watcher service).
std::shared_ptr<git::WatchTicket> watch_ticket(ToolContext& context, const std::string& directory,
                                               bool first_snapshot) {
  return context.trees != nullptr ? context.trees->ticket_for(directory, first_snapshot) : nullptr;
}

DeferredWork start_task(ToolContext& context, const tracking::StartTaskRequest& request) {
  Caller caller = caller_of(context);
  if (request.target.kind == tracking::TaskTarget::Kind::planned_task) {
    planning::require_startable(context.db, context.plans, request.target.id);
  }
  auto plan =
      std::make_shared<const tracking::TaskStart>(tracking::plan_task_start(caller, request));
  auto snapshot = std::make_shared<git::Snapshot>();
  auto ticket = watch_ticket(context, plan->cwd, true);
  return {[plan, snapshot, ticket] { *snapshot = git::take_snapshot(plan->cwd, ticket.get()); },
          [plan, snapshot](ToolContext& finishing) {
            Caller caller = caller_of(finishing);
            // Checked again: the workflow may have been paused meanwhile.
            if (plan->request.target.kind == tracking::TaskTarget::Kind::planned_task) {
              planning::require_startable(finishing.db, finishing.plans, plan->request.target.id);
            }
            return tracking::finish_task_start(caller, *plan, *snapshot);
          },
          nullptr};
}

DeferredWork complete_task(ToolContext& context, const tracking::CompleteTaskRequest& request) {
  Caller caller = caller_of(context);
  auto plan = std::make_shared<const tracking::TaskCompletion>(
      tracking::plan_task_completion(caller, request));
  struct Found {
    git::ChangeSet changes;
    git::ScopeVerification verification;
  };
  auto found = std::make_shared<Found>();
  auto ticket = watch_ticket(context, plan->snapshot.root, false);
  return {[plan, found, ticket] {
            found->changes = git::compute_change_set(plan->snapshot, ticket.get());
            found->verification = git::verify_scope(found->changes, plan->areas);
          },
          [plan, found](ToolContext& finishing) {
            Caller caller = caller_of(finishing);
            nlohmann::json result = tracking::finish_task_completion(caller, *plan, found->changes,
                                                                     found->verification);
            if (finishing.trees != nullptr) finishing.trees->task_ended(plan->snapshot.root);
            return result;
          },
          nullptr};
}

nlohmann::json get_context(ToolContext& context, const tracking::GetContextRequest& request) {
  return tracking::mission_context(context.db, request, tracking::KeyStyle::snake);
}

nlohmann::json task_changes(ToolContext& context, const tracking::TaskChangesRequest& request) {
  return tracking::task_changes(context.db, request, tracking::KeyStyle::snake);
}

}  // namespace

std::span<const ToolRow> tracking_tools() {
  using namespace tracking;
  static constexpr ToolRow kTools[] = {
      {"start_mission", ToolMode::immediate, true,
       immediate<StartMissionRequest, tracked<StartMissionRequest, start_mission>>},
      {"complete_mission", ToolMode::immediate, true,
       immediate<CompleteMissionRequest, tracked<CompleteMissionRequest, complete_mission>>},
      {"get_context", ToolMode::immediate, false, immediate<GetContextRequest, get_context>},
      {"start_task", ToolMode::deferred, true, deferred<StartTaskRequest, start_task>},
      {"complete_task", ToolMode::deferred, true, deferred<CompleteTaskRequest, complete_task>},
      {"log_decision", ToolMode::immediate, true,
       immediate<LogDecisionRequest, tracked<LogDecisionRequest, log_decision>>},
      {"log_issue", ToolMode::immediate, true,
       immediate<LogIssueRequest, tracked<LogIssueRequest, log_issue>>},
      {"log_milestone", ToolMode::immediate, true,
       immediate<LogMilestoneRequest, tracked<LogMilestoneRequest, log_milestone>>},
  };
  return kTools;
}

std::span<const ToolRow> legacy_tools() {
  using namespace tracking;
  static constexpr ToolRow kTools[] = {
      {"start_workflow", ToolMode::immediate, true,
       immediate<StartWorkflowRequest, tracked<StartWorkflowRequest, start_workflow>>},
  };
  return kTools;
}

std::span<const ToolRow> inspect_tools() {
  static constexpr ToolRow kTools[] = {
      {"task_changes", ToolMode::immediate, false,
       immediate<tracking::TaskChangesRequest, task_changes>},
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
