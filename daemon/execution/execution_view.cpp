#include "daemon/execution/execution_view.hpp"

#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::execution {
namespace {

void put_optional_time(nlohmann::json& out, const char* key, const std::optional<std::int64_t>& ms) {
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

}  // namespace

nlohmann::json observation_json(const store::ObservationRow& row) {
  nlohmann::json payload = nlohmann::json::parse(row.payload, nullptr, false);
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
  nlohmann::json descriptor = nlohmann::json::parse(row.descriptor, nullptr, false);
  nlohmann::json command = nlohmann::json::parse(row.command, nullptr, false);
  nlohmann::json out = {{"id", row.id},
                        {"kind", row.kind},
                        {"adapter", row.adapter},
                        {"delivery", row.delivery},
                        {"state", row.state},
                        {"cwd", row.cwd},
                        {"command", command.is_discarded() ? nlohmann::json::array() : command},
                        {"toolsets", descriptor_toolsets(descriptor)},
                        {"createdAt", format_utc_iso8601(row.created_at)},
                        {"updatedAt", format_utc_iso8601(row.updated_at)}};
  if (row.pid) out["pid"] = *row.pid;
  if (row.exit_code) out["exitCode"] = *row.exit_code;
  if (row.exit_signal) out["exitSignal"] = *row.exit_signal;
  put_optional_time(out, "startedAt", row.started_at);
  put_optional_time(out, "endedAt", row.ended_at);
  store::ObservationRepository observations(db);
  out["observations"] = observations.count(row.id);
  // What a waiting execution waits on, so a person who looks after the
  // question was asked still sees it.
  if (row.state == kAwaitingInput || row.state == kBlocked) {
    if (auto signal = observations.last_accepted(row.id, "needs_input", "blocked")) {
      out["waitingOn"] = observation_json(*signal);
    }
  }
  nlohmann::json sessions = nlohmann::json::array();
  for (const auto& session : store::McpSessionRepository(db).list_for_execution(row.id)) {
    sessions.push_back(session_json(session));
  }
  out["mcpSessions"] = std::move(sessions);
  return out;
}

}  // namespace mission::daemon::execution
