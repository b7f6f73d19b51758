#pragma once
// The JSON shape of an AgentExecution on the control API (execution.list,
// execution.get, execution.create, mcp.attach, events) and in
// `mission exec --json`. Keys are camelCase, like the whole control API.

#include <nlohmann/json.hpp>
#include <span>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"

namespace mission::daemon::execution {

// {id, kind, adapter, delivery, state, cwd, command, toolsets, pid?,
// exitCode?, exitSignal?, createdAt, startedAt?, endedAt?, updatedAt,
// observations, waitingOn?, mcpSessions[{id, client{name,version},
// protocolVersion, attachedAt, detachedAt?, calls, toolLists}] (the newest
// kMaxSessionsShown), mcpSessionCount, agentName?, unreadMessages,
// refusedWrites?[{path, operation, from}]}. Never the token or its hash.
nlohmann::json execution_json(store::Database& db, const store::ExecutionRow& row);

// execution_json of each row, with the counts and sessions of all of them
// read in a fixed number of queries rather than a few per row.
nlohmann::json executions_json(store::Database& db, std::span<const store::ExecutionRow> rows);

// {id, eventId, origin, kind, status, payload, createdAt, reason?}: one
// observation in `mission exec signals` and in observation events.
nlohmann::json observation_json(const store::ObservationRow& row);

}  // namespace mission::daemon::execution
