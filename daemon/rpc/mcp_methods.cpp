#include "daemon/rpc/mcp_methods.hpp"

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/mcp/mcp_session.hpp"
#include "daemon/rpc/control_session.hpp"
#include "daemon/rpc/execution_methods.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, McpAttachRequest& request) {
  if (j.contains("agentExecutionId")) {
    request.execution_id = j.at("agentExecutionId").get<std::string>();
  }
  request.token = j.value("token", "");
  request.cwd = j.at("cwd").get<std::string>();
  if (j.contains("toolsets")) {
    request.toolsets = decode_toolsets(j.at("toolsets"));
    request.toolsets_given = !request.toolsets.empty();
  }
}

nlohmann::json handle_mcp_attach(MethodContext& context, const McpAttachRequest& request) {
  if (context.session().is_mcp()) {
    throw MissionError(ErrorCode::invalid_request, "this connection is already an MCP session",
                       "open a new connection for another session");
  }
  if (const AgentSessionCount* sessions = context.services.agent_sessions;
      sessions != nullptr && sessions->open >= sessions->max) {
    throw MissionError(
        ErrorCode::daemon_unavailable,
        "the daemon already serves " + std::to_string(sessions->open) +
            " agent sessions, its limit (the rest of its connections are kept for "
            "people's commands)",
        "end agents that are done, or start missiond with a larger --max-connections");
  }
  store::Database& db = context.services.db;
  execution::AgentExecutionRegistry registry(db);
  store::ExecutionRow row;
  if (request.execution_id) {
    if (request.toolsets_given) {
      throw MissionError(ErrorCode::invalid_argument,
                         "toolsets are fixed when an execution is created",
                         "attach without toolsets, or attach without an id to create one");
    }
    row = registry.authorize_mcp(*request.execution_id, request.token);
  } else {
    execution::CreateSpec spec;
    spec.kind = ExecutionKind::attached;
    spec.delivery = Delivery::mcp_tool;
    spec.cwd = request.cwd;
    spec.toolsets = request.toolsets;
    spec.state = ExecutionState::running;
    row = registry.create(spec).row;
    row.started_at = row.created_at;
    store::ExecutionRepository(db).update(row);
  }

  nlohmann::json descriptor = parse_stored_json(row.descriptor, "execution descriptor");
  std::vector<Toolset> toolsets = execution::descriptor_toolsets(descriptor);
  std::int64_t session_id = store::McpSessionRepository(db).insert(row.id, unix_ms_now());
  context.session().become_mcp(std::make_unique<mcp::McpSession>(
      context.services.mcp,
      std::make_unique<mcp::ConnectionChannel>(context.session().connection()),
      mcp::AttachedExecution{row.id, row.kind,
                             mcp::ToolCatalog::builtin().view(toolsets, descriptor), session_id}));
  execution::add_execution_event(
      context.events, db,
      request.execution_id ? execution::kExecutionUpdated : execution::kExecutionCreated, row.id);
  return {{"agentExecutionId", row.id},
          {"sessionId", session_id},
          {"state", row.state},
          {"toolsets", toolsets}};
}

}  // namespace mission::daemon
