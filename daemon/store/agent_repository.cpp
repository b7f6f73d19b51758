#include "daemon/store/agent_repository.hpp"

namespace mission::store {
namespace {

constexpr const char* kSelect =
    "SELECT e.id, e.adapter, e.kind, e.state, e.agent_name, e.agent_runtime, e.agent_role, "
    "coalesce(e.agent_capabilities, '[]'), e.agent_status, e.agent_task_id, e.agent_workspace, "
    "e.agent_metadata, e.agent_registered_at, e.last_heartbeat_at, "
    "(SELECT max(s.last_call_at) FROM mcp_sessions s WHERE s.execution_id = e.id), e.created_at, "
    "e.rowid FROM executions e ";

AgentRow read_row(const Statement& s) {
  AgentRow row;
  row.execution_id = s.text(0);
  row.adapter = s.text(1);
  row.kind = s.name<ExecutionKind>(2);
  row.state = s.name<ExecutionState>(3);
  row.name = s.optional_text(4);
  row.runtime = s.optional_text(5);
  if (!s.is_null(6)) row.role = s.name<AgentRole>(6);
  row.capabilities = s.text(7);
  if (!s.is_null(8)) row.status = s.name<AgentStatus>(8);
  row.task_id = s.optional_text(9);
  row.workspace = s.optional_text(10);
  row.metadata = s.optional_text(11);
  row.registered_at = s.optional_integer(12);
  row.last_heartbeat_at = s.optional_integer(13);
  row.last_call_at = s.optional_integer(14);
  row.created_at = s.integer(15);
  return row;
}

}  // namespace

std::optional<AgentRow> AgentRepository::find(const std::string& execution_id) {
  auto s = db_.prepare(std::string(kSelect) + "WHERE e.id = ?1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

void AgentRepository::register_agent(const std::string& execution_id,
                                     const AgentRegistration& registration, std::int64_t now) {
  auto s = db_.prepare(
      "UPDATE executions SET agent_name = ?2, agent_runtime = ?3, agent_role = ?4, "
      "agent_capabilities = coalesce(?5, agent_capabilities, '[]'), agent_status = 'online', "
      "agent_workspace = coalesce(?6, agent_workspace), agent_metadata = coalesce(?7, "
      "agent_metadata), "
      "agent_registered_at = coalesce(agent_registered_at, ?8), last_heartbeat_at = ?8 WHERE id = "
      "?1");
  s.bind(1, execution_id).bind(2, registration.name).bind(3, registration.runtime);
  s.bind(4, registration.role).bind(5, registration.capabilities).bind(6, registration.workspace);
  s.bind(7, registration.metadata).bind(8, now);
  s.run();
}

void AgentRepository::change(const std::string& execution_id, const AgentChanges& changes,
                             std::int64_t now) {
  // ?N IS NULL keeps a column; the flags say whether to touch the nullable one.
  auto s = db_.prepare(
      "UPDATE executions SET agent_status = coalesce(?2, agent_status), "
      "agent_task_id = CASE WHEN ?3 = 1 THEN ?4 ELSE agent_task_id END, "
      "agent_workspace = coalesce(?5, agent_workspace), agent_metadata = coalesce(?6, "
      "agent_metadata), "
      "last_heartbeat_at = CASE WHEN ?7 = 1 THEN ?8 ELSE last_heartbeat_at END WHERE id = ?1");
  s.bind(1, execution_id).bind(2, changes.status);
  s.bind(3, static_cast<std::int64_t>(changes.task_id.has_value()));
  s.bind(4, changes.task_id ? *changes.task_id : std::nullopt);
  s.bind(5, changes.workspace).bind(6, changes.metadata);
  s.bind(7, static_cast<std::int64_t>(changes.heartbeat)).bind(8, now);
  s.run();
}

Page<AgentRow> AgentRepository::page(const AgentFilter& filter, const PageRequest& request) {
  // The status coordination::effective_status computes, in SQL, so that a
  // page filtered by it is still exact: final or unregistered is offline,
  // and so is an agent we did not launch that went silent.
  const std::string effective =
      "CASE WHEN e.state IN ('completed', 'failed', 'cancelled', 'lost') OR "
      "e.agent_status = 'offline' OR (e.kind != 'launched' AND max(coalesce(e.last_heartbeat_at, "
      "0), "
      "coalesce((SELECT max(s.last_call_at) FROM mcp_sessions s WHERE s.execution_id = e.id), 0)) "
      "< ?6 - ?7) THEN 'offline' ELSE coalesce(e.agent_status, 'online') END";
  auto s = db_.prepare(
      std::string(kSelect) +
      "WHERE e.agent_registered_at IS NOT NULL AND (?1 IS NULL OR e.agent_role = ?1) "
      "AND (?2 IS NULL OR e.agent_runtime = ?2) AND (?5 IS NULL OR " +
      effective + " IN (SELECT value FROM json_each(?5)))" + page_clause(request, "e.rowid", 3, 4));
  std::optional<std::string> statuses;
  if (!filter.statuses.empty()) {
    nlohmann::json names = nlohmann::json::array();
    for (AgentStatus status : filter.statuses) names.push_back(name_of(status));
    statuses = names.dump();
  }
  s.bind(1, filter.role).bind(2, filter.runtime).bind(3, page_position(request));
  s.bind(4, static_cast<std::int64_t>(request.limit) + 1);
  s.bind(5, statuses).bind(6, filter.now).bind(7, filter.offline_after_ms);
  Page<AgentRow> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read_row(s));
    page.positions.push_back(s.integer(16));
  }
  return page;
}

std::vector<AgentRow> AgentRepository::registered_active() {
  auto s = db_.prepare(std::string(kSelect) +
                       "WHERE e.agent_registered_at IS NOT NULL AND e.state NOT IN "
                       "('completed', 'failed', 'cancelled', 'lost') ORDER BY e.rowid");
  std::vector<AgentRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  return rows;
}

}  // namespace mission::store
