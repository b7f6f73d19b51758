#pragma once
// The JSON shape of an AgentExecution on the control API (execution.list,
// execution.get, execution.create, mcp.attach) and in `mission exec --json`.

#include <nlohmann/json.hpp>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"

namespace mission::daemon::execution {

// {id, kind, adapter, delivery, state, cwd, command, toolsets, pid?,
// exitCode?, exitSignal?, createdAt, startedAt?, endedAt?, updatedAt,
// observations, mcpSessions[{id, client{name,version}, protocolVersion,
// attachedAt, detachedAt?, calls, toolLists}]}. Never the token or its hash.
nlohmann::json execution_json(store::Database& db, const store::ExecutionRow& row);

// {id, eventId, origin, kind, status, payload, createdAt, reason?}: one
// observation in `mission exec signals` and in observation events.
nlohmann::json observation_json(const store::ObservationRow& row);

}  // namespace mission::daemon::execution
