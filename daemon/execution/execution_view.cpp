#include "daemon/execution/execution_view.hpp"

#include <map>

#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/execution/refused_write_record.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "daemon/store/message_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::execution {
namespace {

void put_optional_time(nlohmann::json& out, const char* key,
                       const std::optional<std::int64_t>& ms) {
  if (ms) out[key] = format_utc_iso8601(*ms);
}

nlohmann::json session_json(const store::McpSessionRow& session) {
  nlohmann::json out = {{"id", session.id},
                        {"client",
                         {{"name", session.client_name.value_or("")},
                          {"version", session.client_version.value_or("")}}},
                        {"protocolVersion", session.protocol_version.value_or("")},
                        {"attachedAt", format_utc_iso8601(session.attached_at)},
                        {"attached", !session.detached_at.has_value()},
                        {"calls", session.calls},
                        {"toolLists", session.tool_lists}};
  put_optional_time(out, "detachedAt", session.detached_at);
  return out;
}

// What each execution of a list needs beside its row.
struct Extras {
  std::int64_t observations = 0;
  std::optional<store::ObservationRow> waiting_on;
  std::optional<store::ObservationRow> permission_prompt;  // on its screen when last read
  std::vector<store::McpSessionRow> sessions;              // newest kMaxSessionsShown, oldest first
  std::int64_t session_count = 0;
  std::optional<std::string> agent_name;  // once it registered as an agent
  std::int64_t unread_messages = 0;
  nlohmann::json claims = nlohmann::json::array();  // the tasks it holds (docs/adr/0019)
  // The writes its sandbox refused (docs/adr/0036), as refused_writes_json.
  nlohmann::json refused_writes = nlohmann::json::array();
};

nlohmann::json render(const store::ExecutionRow& row, Extras extras) {
  nlohmann::json descriptor = parse_json_or_discarded(row.descriptor);
  nlohmann::json command = parse_json_or_discarded(row.command);
  nlohmann::json out = {{"id", row.id},
                        {"kind", row.kind},
                        {"adapter", row.adapter},
                        {"delivery", row.delivery},
                        {"state", row.state},
                        {"cwd", row.cwd},
                        {"command", command.is_discarded() ? nlohmann::json::array() : command},
                        {"toolsets", descriptor_toolsets(descriptor)},
                        {"createdAt", format_utc_iso8601(row.created_at)},
                        {"updatedAt", format_utc_iso8601(row.updated_at)},
                        {"observations", extras.observations}};
  if (row.sandbox) out["sandbox"] = *row.sandbox;
  if (row.pid) out["pid"] = *row.pid;
  if (row.exit_code) out["exitCode"] = *row.exit_code;
  if (row.exit_signal) out["exitSignal"] = *row.exit_signal;
  put_optional_time(out, "startedAt", row.started_at);
  put_optional_time(out, "endedAt", row.ended_at);
  // What a waiting execution waits on, so a person who looks after the
  // question was asked still sees it.
  if (extras.waiting_on) out["waitingOn"] = observation_json(*extras.waiting_on);
  // A menu on its terminal waits for a person too: read from the screen,
  // not said by the agent, hence `detected`; false when the agent asked
  // over ACP.
  if (extras.permission_prompt) {
    nlohmann::json payload = parse_json_or_discarded(extras.permission_prompt->payload);
    if (payload.is_object()) {
      out["awaitingPermission"] = {
          {"question", payload.value("question", "")},
          {"options", payload.value("options", nlohmann::json::array())},
          {"detected", payload.value("detected", true)},
          {"since", format_utc_iso8601(extras.permission_prompt->created_at)}};
    }
  }
  nlohmann::json sessions = nlohmann::json::array();
  for (const auto& session : extras.sessions) sessions.push_back(session_json(session));
  out["mcpSessions"] = std::move(sessions);
  out["mcpSessionCount"] = extras.session_count;
  if (extras.agent_name) out["agentName"] = *extras.agent_name;
  out["unreadMessages"] = extras.unread_messages;
  out["claims"] = std::move(extras.claims);
  if (!extras.refused_writes.empty()) out["refusedWrites"] = std::move(extras.refused_writes);
  return out;
}

bool is_waiting(const store::ExecutionRow& row) {
  return row.state == ExecutionState::awaiting_input || row.state == ExecutionState::blocked;
}

}  // namespace

nlohmann::json observation_json(const store::ObservationRow& row) {
  nlohmann::json payload = parse_json_or_discarded(row.payload);
  nlohmann::json out = {{"id", row.id},
                        {"eventId", row.event_id},
                        {"origin", row.origin},
                        {"kind", row.kind},
                        {"status", row.status},
                        {"payload", payload.is_discarded() ? nlohmann::json() : payload},
                        {"createdAt", format_utc_iso8601(row.created_at)}};
  if (row.reason) out["reason"] = *row.reason;
  return out;
}

nlohmann::json execution_json(store::Database& db, const store::ExecutionRow& row) {
  return executions_json(db, std::span(&row, 1)).at(0);
}

nlohmann::json executions_json(store::Database& db, std::span<const store::ExecutionRow> rows) {
  std::map<std::string, Extras> extras;
  if (!rows.empty()) {
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& row : rows) ids.push_back(row.id);
    const std::string id_list = ids.dump();
    // One pass over each table for the whole page (json_each expands the
    // id list), instead of a few queries per execution.
    auto counts = db.prepare(
        "SELECT o.execution_id, count(*) FROM observations o WHERE o.execution_id IN "
        "(SELECT value FROM json_each(?1)) GROUP BY o.execution_id");
    counts.bind(1, id_list);
    while (counts.step()) extras[counts.text(0)].observations = counts.integer(1);

    auto sessions = db.prepare(
        "SELECT id, execution_id, client_name, client_version, protocol_version, attached_at, "
        "detached_at, calls, tool_lists, total FROM ("
        "  SELECT s.*, row_number() OVER (PARTITION BY execution_id ORDER BY id DESC) AS newest,"
        "         count(*) OVER (PARTITION BY execution_id) AS total"
        "  FROM mcp_sessions s WHERE execution_id IN (SELECT value FROM json_each(?1))"
        ") WHERE newest <= ?2 ORDER BY id");
    sessions.bind(1, id_list).bind(2, static_cast<std::int64_t>(limits::kMaxSessionsShown));
    while (sessions.step()) {
      store::McpSessionRow session;
      session.id = sessions.integer(0);
      session.execution_id = sessions.text(1);
      session.client_name = sessions.optional_text(2);
      session.client_version = sessions.optional_text(3);
      session.protocol_version = sessions.optional_text(4);
      session.attached_at = sessions.integer(5);
      session.detached_at = sessions.optional_integer(6);
      session.calls = sessions.integer(7);
      session.tool_lists = sessions.integer(8);
      Extras& entry = extras[session.execution_id];
      entry.session_count = sessions.integer(9);
      entry.sessions.push_back(std::move(session));
    }
    auto agents = db.prepare(
        "SELECT id, agent_name FROM executions WHERE agent_name IS NOT NULL AND id IN "
        "(SELECT value FROM json_each(?1))");
    agents.bind(1, id_list);
    while (agents.step()) extras[agents.text(0)].agent_name = agents.text(1);
    for (const auto& [id, unread] :
         store::MessageRepository(db).unread_by_execution(id_list, unix_ms_now())) {
      extras[id].unread_messages = unread;
    }
    auto claims = db.prepare(
        "SELECT claimed_by, id, name, mission_id, status, claimed_at FROM tasks WHERE claimed_by "
        "IN "
        "(SELECT value FROM json_each(?1)) ORDER BY claimed_at, rowid");
    claims.bind(1, id_list);
    while (claims.step()) {
      extras[claims.text(0)].claims.push_back(
          {{"taskId", claims.text(1)},
           {"taskName", claims.text(2)},
           {"workflowId", claims.text(3)},
           {"status", claims.text(4)},
           {"claimedAt", format_utc_iso8601(claims.integer(5))}});
    }
    store::ObservationRepository observations(db);
    for (const auto& row : rows) {
      if (is_waiting(row)) extras[row.id].waiting_on = observations.waiting_on(row.id);
      if (!is_final(row.state)) {
        extras[row.id].permission_prompt = observations.open_permission_prompt(row.id);
      }
      extras[row.id].refused_writes = refused_writes_json(refused_writes_of(db, row.id));
    }
  }
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : rows) list.push_back(render(row, std::move(extras[row.id])));
  return list;
}

}  // namespace mission::daemon::execution
