// Agents are executions (ADR 17): registration adds what seed 003's agent
// says of itself to the calling execution; nothing lets one agent act as
// another.

#include <algorithm>

#include "daemon/coordination/coordination.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::coordination {
namespace {

void put_time(nlohmann::json& out, KeyStyle style, const char* snake,
              std::optional<std::int64_t> ms) {
  if (ms) out[tracking::key(style, snake)] = format_utc_iso8601(*ms);
}

// An agent tool names the caller, or nobody: seed 003 makes agents repeat
// their id, and an id that is not theirs would let one act as another.
void require_self(const Caller& caller, const std::optional<std::string>& given,
                  const char* field) {
  if (!given || *given == caller.execution_id) return;
  throw MissionError(ErrorCode::forbidden,
                     std::string(field) + " '" + *given + "' is not the calling agent (" +
                         caller.execution_id + "); an agent acts only as itself",
                     std::string("leave ") + field +
                         " out: every agent tool applies to the execution of this session",
                     {{"field", field}, {"agent_id", caller.execution_id}});
}

store::AgentRow require_agent(store::Database& db, const std::string& id, bool registered) {
  auto row = store::AgentRepository(db).find(id);
  if (row && (!registered || row->registered_at)) return *row;
  throw MissionError(
      ErrorCode::not_found, row ? "agent " + id + " has not registered" : "no agent " + id,
      row ? "call agent_register first" : "agent_list shows the registered agents", {{"id", id}});
}

nlohmann::json success() {
  return {{"success", true}};
}

}  // namespace

AgentStatus effective_status(const store::AgentRow& row, std::int64_t now) {
  if (is_final(row.state) || row.status == AgentStatus::offline) return AgentStatus::offline;
  if (row.kind != ExecutionKind::launched) {
    // Not ours to watch: alive while it keeps calling or beating.
    const std::int64_t last =
        std::max(row.last_heartbeat_at.value_or(0), row.last_call_at.value_or(0));
    if (last == 0 || now - last > limits::kAgentOfflineAfterMs) return AgentStatus::offline;
  }
  return row.status.value_or(AgentStatus::online);
}

nlohmann::json agent_json(const store::AgentRow& row, std::int64_t now, KeyStyle style) {
  auto key = [style](const char* snake) { return tracking::key(style, snake); };
  nlohmann::json capabilities = parse_json_or_discarded(row.capabilities);
  nlohmann::json out = {
      {"id", row.execution_id},
      {"name", row.name.value_or("")},
      {"runtime", row.runtime.value_or("")},
      {"role", row.role.value_or(AgentRole::worker)},
      {"capabilities", capabilities.is_array() ? capabilities : nlohmann::json::array()},
      {"status", effective_status(row, now)},
      {key("execution_state"), row.state},
      {"kind", row.kind}};
  if (row.task_id) out[key("current_task_id")] = *row.task_id;
  if (row.workspace) out[key("workspace_path")] = *row.workspace;
  if (row.metadata) {
    nlohmann::json metadata = parse_json_or_discarded(*row.metadata);
    if (!metadata.is_discarded()) out["metadata"] = metadata;
  }
  put_time(out, style, "registered_at", row.registered_at);
  put_time(out, style, "last_heartbeat_at", row.last_heartbeat_at);
  const std::int64_t seen =
      std::max(row.last_heartbeat_at.value_or(0), row.last_call_at.value_or(0));
  if (seen > 0) put_time(out, style, "last_seen_at", seen);
  return out;
}

nlohmann::json agent_register(Caller& caller, const AgentRegisterRequest& request) {
  store::AgentRegistration registration;
  registration.name = request.name;
  registration.runtime = request.runtime;
  registration.role = request.role;
  if (request.capabilities)
    registration.capabilities = nlohmann::json(*request.capabilities).dump();
  registration.workspace = request.workspace_path;
  registration.metadata = request.metadata;
  store::AgentRepository(caller.db).register_agent(caller.execution_id, registration,
                                                   unix_ms_now());
  return {{"id", caller.execution_id},
          {"name", request.name},
          {"status", AgentStatus::online},
          {"next_heartbeat_ms", limits::kAgentHeartbeatIntervalMs}};
}

nlohmann::json agent_heartbeat(Caller& caller, const AgentHeartbeatRequest& request) {
  require_self(caller, request.agent_id, "agent_id");
  store::AgentChanges changes;
  changes.status = request.status;
  if (request.current_task_id) changes.task_id = request.current_task_id;
  changes.heartbeat = true;
  store::AgentRepository(caller.db).change(caller.execution_id, changes, unix_ms_now());
  return {{"success", true}, {"next_heartbeat_ms", limits::kAgentHeartbeatIntervalMs}};
}

nlohmann::json agent_update(Caller& caller, const AgentUpdateRequest& request) {
  require_self(caller, request.id, "id");
  require_agent(caller.db, caller.execution_id, true);
  store::AgentChanges changes;
  changes.status = request.status;
  changes.task_id = request.current_task_id;
  changes.workspace = request.workspace_path;
  changes.metadata = request.metadata;
  changes.heartbeat = true;
  store::AgentRepository(caller.db).change(caller.execution_id, changes, unix_ms_now());
  return success();
}

nlohmann::json agent_get(Caller& caller, const AgentIdRequest& request) {
  const std::string id = request.id.value_or(caller.execution_id);
  return agent_json(require_agent(caller.db, id, true), unix_ms_now(), KeyStyle::snake);
}

store::Page<store::AgentRow> agent_page(store::Database& db, const AgentListRequest& request,
                                        std::int64_t now) {
  store::AgentFilter filter;
  filter.role = request.role;
  filter.runtime = request.runtime;
  filter.statuses = request.status;
  filter.now = now;
  filter.offline_after_ms = limits::kAgentOfflineAfterMs;
  return store::AgentRepository(db).page(filter, request.page);
}

nlohmann::json agent_list(store::Database& db, const AgentListRequest& request) {
  const std::int64_t now = unix_ms_now();
  auto page = agent_page(db, request, now);
  nlohmann::json agents = nlohmann::json::array();
  for (const auto& row : page.rows) agents.push_back(agent_json(row, now, KeyStyle::snake));
  nlohmann::json out = nlohmann::json::object();
  put_tool_page(out, "agents", std::move(agents), page.positions, page.more, request.page);
  return out;
}

nlohmann::json agent_unregister(Caller& caller, const AgentIdRequest& request) {
  require_self(caller, request.id, "id");
  require_agent(caller.db, caller.execution_id, true);
  store::AgentChanges changes;
  changes.status = AgentStatus::offline;
  store::AgentRepository(caller.db).change(caller.execution_id, changes, unix_ms_now());
  return success();
}

}  // namespace mission::daemon::coordination
