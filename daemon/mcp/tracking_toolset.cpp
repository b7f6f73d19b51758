// The tracking and legacy toolsets: missions, workflows, phases, tasks,
// decisions, issues, milestones (daemon/tracking/). Mutating tools honour
// request_id; start_task and complete_task hand their git work to the
// thread pool.

#include <memory>
#include <string_view>

#include "daemon/git/change_set.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/mcp/toolsets.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "daemon/tracking/tracker.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::mcp {
namespace {

using tracking::Caller;

using ImmediateTool = nlohmann::json (*)(Caller&, const nlohmann::json&);

constexpr struct {
  std::string_view name;
  ImmediateTool run;
} kImmediateTools[] = {
    {"start_mission", tracking::start_mission},
    {"start_workflow", tracking::start_workflow},
    {"complete_mission", tracking::complete_mission},
    {"log_decision", tracking::log_decision},
    {"log_issue", tracking::log_issue},
    {"log_milestone", tracking::log_milestone},
};

// Taken on the loop before the work is queued: what the tree's watcher
// knows changed up to this call (null when no watcher service).
std::shared_ptr<git::WatchTicket> watch_ticket(ToolContext& context, const std::string& directory,
                                               bool first_snapshot) {
  return context.trees != nullptr ? context.trees->ticket_for(directory, first_snapshot) : nullptr;
}

DeferredWork start_task(ToolContext& context, Caller& caller, const nlohmann::json& args) {
  auto plan = std::make_shared<tracking::TaskStart>(tracking::plan_task_start(caller, args));
  auto snapshot = std::make_shared<git::Snapshot>();
  auto ticket = watch_ticket(context, plan->cwd, true);
  return {[plan, snapshot, ticket] {
            *snapshot = git::take_snapshot(plan->cwd, ticket.get());
            return nlohmann::json();
          },
          [plan, snapshot](ToolContext& context, nlohmann::json) {
            Caller caller{context.db, context.execution_id, context.events};
            return tracking::finish_task_start(caller, *plan, *snapshot);
          },
          nullptr};
}

DeferredWork complete_task(ToolContext& context, Caller& caller, const nlohmann::json& args) {
  auto plan = std::make_shared<tracking::TaskCompletion>(tracking::plan_task_completion(caller, args));
  struct Found {
    git::ChangeSet changes;
    git::ScopeVerification verification;
  };
  auto found = std::make_shared<Found>();
  auto ticket = watch_ticket(context, plan->snapshot.root, false);
  return {[plan, found, ticket] {
            found->changes = git::compute_change_set(plan->snapshot, ticket.get());
            found->verification = git::verify_scope(found->changes, plan->areas);
            return nlohmann::json();
          },
          [plan, found](ToolContext& context, nlohmann::json) {
            Caller caller{context.db, context.execution_id, context.events};
            nlohmann::json result = tracking::finish_task_completion(caller, *plan, found->changes,
                                                                     found->verification);
            if (context.trees != nullptr) context.trees->task_ended(plan->snapshot.root);
            return result;
          },
          nullptr};
}

ToolOutcome run_tool(ToolContext& context, const ToolDefinition& tool, const nlohmann::json& args) {
  Caller caller{context.db, context.execution_id, context.events};
  if (tool.name == "get_context") return tracking::mission_context(context.db, args);
  if (tool.name == "start_task") return start_task(context, caller, args);
  if (tool.name == "complete_task") return complete_task(context, caller, args);
  for (const auto& entry : kImmediateTools) {
    if (entry.name == tool.name) return entry.run(caller, args);
  }
  throw MissionError(ErrorCode::internal, "tracking tool '" + tool.name + "' has no handler");
}

}  // namespace

ToolOutcome call_tracking_tool(ToolContext& context, const ToolDefinition& tool,
                               const nlohmann::json& arguments) {
  auto it = arguments.find("request_id");
  if (it == arguments.end()) return run_tool(context, tool, arguments);

  auto key = std::make_shared<tracking::IdempotencyKey>(it->get<std::string>(), tool.name, arguments,
                                                        context.execution_id);
  if (auto replayed = key->replay(context.db)) return *replayed;
  ToolOutcome outcome = run_tool(context, tool, arguments);
  if (!outcome.deferred) {
    key->complete(context.db, context.idempotency, outcome.result);
    return outcome;
  }
  // The key is held while the work runs, so a retry meanwhile is told to
  // wait rather than starting the same work twice.
  key->reserve(context.db, context.idempotency);
  DeferredWork& deferred = *outcome.deferred;
  deferred.finish = [key, finish = std::move(deferred.finish)](ToolContext& context,
                                                               nlohmann::json work_result) {
    nlohmann::json result = finish(context, std::move(work_result));
    key->complete(context.db, context.idempotency, result);
    return result;
  };
  deferred.abandon = [key](ToolContext& context) { key->release(context.db); };
  return outcome;
}

}  // namespace mission::daemon::mcp
