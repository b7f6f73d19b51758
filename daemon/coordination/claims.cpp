// Claims as leases (docs/adr/0019): task_claim, task_release,
// task_get_available, and the sweep that ends the claims of agents that
// went silent. A claim is one conditional UPDATE (store/claim_repository),
// so exactly one of any number of racing agents wins it.

#include <algorithm>

#include "daemon/coordination/coordination.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::coordination {
namespace {

void require_self(const std::string& caller, const std::optional<std::string>& given) {
  if (!given || *given == caller) return;
  throw MissionError(ErrorCode::forbidden,
                     "agent_id '" + *given + "' is not the calling agent (" + caller +
                         "); an agent claims only for itself",
                     "leave agent_id out: claims apply to the execution of this session",
                     {{"field", "agent_id"}, {"agent_id", caller}});
}

store::PlannedTaskRow require_claimable(store::Database& db, const std::string& task_id) {
  auto task = store::PlanRepository(db).task(task_id);
  if (!task) {
    throw MissionError(ErrorCode::not_found, "task_id '" + task_id + "' does not exist",
                       "task_get_available lists the tasks you can claim", {{"task_id", task_id}});
  }
  if (!task->plan_order) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task_id + " is not part of a plan; only planned tasks are claimed",
                       "work on it with start_task, or claim a task task_get_available lists",
                       {{"task_id", task_id}});
  }
  return *task;
}

[[noreturn]] void refuse_held(const store::ClaimRow& claim) {
  throw MissionError(
      ErrorCode::already_claimed,
      "task " + claim.task_id + " is already claimed by agent execution " + claim.execution_id,
      "task_get_available lists the tasks nobody holds",
      {{"task_id", claim.task_id}, {"already_claimed_by", claim.execution_id}});
}

std::vector<std::string> capabilities_of(store::Database& db, const std::string& execution_id) {
  auto agent = store::AgentRepository(db).find(execution_id);
  if (!agent) return {};
  nlohmann::json list = parse_json_or_discarded(agent->capabilities);
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const auto& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<std::string> required_capabilities(const store::PlannedTaskRow& task) {
  std::vector<std::string> out;
  if (!task.task_context) return out;
  nlohmann::json context = parse_json_or_discarded(*task.task_context);
  if (!context.is_object() || !context.contains("required_capabilities")) return out;
  const nlohmann::json& list = context.at("required_capabilities");
  if (!list.is_array()) return out;
  for (const auto& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

void require_capabilities(store::Database& db, const std::string& execution_id,
                          const store::PlannedTaskRow& task) {
  std::vector<std::string> have = capabilities_of(db, execution_id);
  nlohmann::json missing = nlohmann::json::array();
  for (const auto& need : required_capabilities(task)) {
    if (std::find(have.begin(), have.end(), need) == have.end()) missing.push_back(need);
  }
  if (missing.empty()) return;
  throw MissionError(
      ErrorCode::invalid_argument,
      "task '" + task.name +
          "' needs capabilities this agent has not registered: " + missing.dump(),
      "agent_register with those capabilities, or claim a task task_get_available lists",
      {{"task_id", task.id}, {"missing_capabilities", missing}});
}

}  // namespace

nlohmann::json task_claim(Caller& caller, const TaskClaimRequest& request) {
  require_self(caller.execution_id, request.agent_id);
  store::ClaimRepository claims(caller.db);
  store::PlannedTaskRow task = require_claimable(caller.db, request.task_id);
  if (auto held = claims.claim_of(task.id)) {
    if (held->execution_id != caller.execution_id) refuse_held(*held);
    return {{"success", true},
            {"task_id", task.id},
            {"claimed_at", format_utc_iso8601(held->claimed_at)},
            {"lease_ms", limits::kClaimLeaseMs},
            {"already_yours", true}};
  }
  if (task.status != TaskStatus::pending && task.status != TaskStatus::failed) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task '" + task.name + "' is " + std::string(name_of(task.status)) +
                           "; only a ready or failed task is claimed",
                       "task_get_available lists the tasks you can claim",
                       {{"task_id", task.id}, {"status", task.status}});
  }
  require_capabilities(caller.db, caller.execution_id, task);
  planning::require_startable(caller.db, caller.plans, task.id);
  const std::int64_t now = unix_ms_now();
  if (!tracking::task_lifecycle(caller.events, caller.db, caller.execution_id)
           .claim(task.id, caller.execution_id, now)) {
    // Only another claim in between can get here; say whose.
    if (auto held = claims.claim_of(task.id)) refuse_held(*held);
    throw MissionError(ErrorCode::invalid_argument, "task " + task.id + " cannot be claimed now",
                       "task_get_available lists the tasks you can claim", {{"task_id", task.id}});
  }
  store::AgentChanges changes;
  changes.task_id = std::optional<std::string>(task.id);
  store::AgentRepository(caller.db).change(caller.execution_id, changes, now);
  return {{"success", true},
          {"task_id", task.id},
          {"claimed_at", format_utc_iso8601(now)},
          {"lease_ms", limits::kClaimLeaseMs}};
}

nlohmann::json task_release(Caller& caller, const TaskReleaseRequest& request) {
  require_self(caller.execution_id, request.agent_id);
  store::ClaimRepository claims(caller.db);
  store::PlannedTaskRow task = require_claimable(caller.db, request.task_id);
  auto held = claims.claim_of(task.id);
  if (!held || held->execution_id != caller.execution_id) {
    throw MissionError(
        ErrorCode::forbidden,
        "agent execution " + caller.execution_id + " holds no claim on task " + task.id +
            (held ? " (agent execution " + held->execution_id + " does)" : ""),
        "release only what task_claim gave you",
        {{"task_id", task.id},
         {"claimed_by", held ? nlohmann::json(held->execution_id) : nlohmann::json()}});
  }
  const std::string why = request.reason.value_or("released by its agent");
  tracking::task_lifecycle(caller.events, caller.db, caller.execution_id)
      .release(task.id, caller.execution_id, "released",
               "claim released by agent execution " + caller.execution_id + ": " + why,
               unix_ms_now());
  store::AgentChanges changes;
  changes.task_id = std::optional<std::string>();
  if (auto agent = store::AgentRepository(caller.db).find(caller.execution_id);
      agent && agent->task_id == task.id) {
    store::AgentRepository(caller.db).change(caller.execution_id, changes, unix_ms_now());
  }
  auto after = store::PlanRepository(caller.db).task(task.id);
  return {{"success", true},
          {"task_id", task.id},
          {"status", after && after->status == TaskStatus::failed ? "failed" : "ready"}};
}

nlohmann::json task_get_available(store::Database& db, planning::PlanCache* cache,
                                  const std::string& execution_id,
                                  const TaskAvailableRequest& request) {
  require_self(execution_id, request.agent_id);
  const std::size_t limit =
      std::clamp<std::size_t>(request.limit == 0 ? limits::kDefaultAvailableTasks : request.limit,
                              1, limits::kMaxAvailableTasks);
  const std::string capabilities = nlohmann::json(capabilities_of(db, execution_id)).dump();
  store::ClaimRepository claims(db);
  nlohmann::json tasks = nlohmann::json::array();
  std::int64_t after = request.after.value_or(0);
  std::optional<std::int64_t> last;
  bool more = false;
  // Candidates come in plan order; those still waiting on a prerequisite
  // are skipped, so read in batches until the page is full.
  while (!more) {
    auto batch =
        claims.unclaimed(request.workflow_id, capabilities, after, limits::kMaxAvailableTasks);
    if (batch.empty()) break;
    for (const auto& row : batch) {
      after = row.position;
      auto state = planning::plan_state(cache, db, row.workflow_id);
      auto node = state->node_of(row.id);
      if (!node || !planning::prerequisites_done(*state, *node)) continue;
      if (tasks.size() == limit) {
        more = true;
        break;
      }
      nlohmann::json files = parse_json_or_discarded(row.files_likely_affected);
      nlohmann::json required = parse_json_or_discarded(row.required_capabilities);
      nlohmann::json task = {
          {"id", row.id},
          {"workflow_id", row.workflow_id},
          {"name", row.name},
          {"description", row.description},
          {"status", row.status == TaskStatus::failed ? "failed" : "ready"},
          {"sequence", row.sequence},
          {"files_likely_affected", files.is_array() ? files : nlohmann::json::array()},
          {"required_capabilities", required.is_array() ? required : nlohmann::json::array()}};
      if (row.parallel_group) task["parallel_group"] = *row.parallel_group;
      if (row.complexity) task["estimated_complexity"] = *row.complexity;
      tasks.push_back(std::move(task));
      last = row.position;
    }
    if (batch.size() < limits::kMaxAvailableTasks) break;
  }
  nlohmann::json out = {{"tasks", std::move(tasks)}};
  if (more && last) out["next_cursor"] = std::to_string(*last);
  return out;
}

std::size_t expire_claims(store::Database& db, events::EventBatch& events, std::int64_t now) {
  store::ClaimRepository claims(db);
  std::size_t count = 0;
  for (const auto& claim : claims.expired(now, limits::kClaimLeaseMs)) {
    tracking::task_lifecycle(events, db, claim.execution_id)
        .release(claim.task_id, claim.execution_id, "lease_expired",
                 "claim released: agent execution " + claim.execution_id +
                     " gave no sign of life for " + std::to_string(limits::kClaimLeaseMs / 1000) +
                     " s (the lease)",
                 now);
    ++count;
  }
  return count;
}

nlohmann::json claim_json(const store::ClaimRow& claim, KeyStyle style) {
  return {{tracking::key(style, "task_id"), claim.task_id},
          {tracking::key(style, "task_name"), claim.task_name},
          {tracking::key(style, "workflow_id"), claim.workflow_id},
          {"status", claim.status},
          {tracking::key(style, "claimed_at"), format_utc_iso8601(claim.claimed_at)}};
}

}  // namespace mission::daemon::coordination
