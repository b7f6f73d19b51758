#pragma once
// Persistence of what an agent says of itself (ADR 17): the agent_* columns
// of its execution, its last heartbeat, and the last MCP call of any of its
// sessions. An agent is an execution; its id is the execution's id.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct AgentRow {
  std::string execution_id;
  std::string adapter;
  ExecutionKind kind = ExecutionKind::launched;
  ExecutionState state = ExecutionState::created;
  std::optional<std::string> name;  // set once it registered
  std::optional<std::string> runtime;
  std::optional<AgentRole> role;
  std::string capabilities = "[]";  // JSON array of strings
  std::optional<AgentStatus> status;
  std::optional<std::string> task_id;
  std::optional<std::string> workspace;
  std::optional<std::string> metadata;  // JSON object text
  std::optional<std::int64_t> registered_at;
  std::optional<std::int64_t> last_heartbeat_at;
  std::optional<std::int64_t> last_call_at;  // newest MCP call of any of its sessions
  std::int64_t created_at = 0;
};

// What agent_register sets. Registering again changes name, runtime and
// role; capabilities, workspace and metadata left out keep what they were.
struct AgentRegistration {
  std::string name;
  std::string runtime;
  AgentRole role = AgentRole::worker;
  std::optional<std::string> capabilities;  // JSON array
  std::optional<std::string> workspace;
  std::optional<std::string> metadata;
};

// What agent_update and agent_heartbeat change; absent fields stay.
struct AgentChanges {
  std::optional<AgentStatus> status;
  std::optional<std::optional<std::string>> task_id;  // set, or cleared with a null
  std::optional<std::string> workspace;
  std::optional<std::string> metadata;
  bool heartbeat = false;  // also records a heartbeat at `now`
};

struct AgentFilter {
  std::optional<AgentRole> role;
  std::optional<std::string> runtime;
  std::vector<AgentStatus> statuses;  // empty: any; as effective_status computes them
  std::int64_t now = 0;
  std::int64_t offline_after_ms = 0;  // an external agent silent this long is offline
};

class AgentRepository {
 public:
  explicit AgentRepository(Database& db) : db_(db) {}

  // The execution as an agent (registered or not), or nullopt.
  std::optional<AgentRow> find(const std::string& execution_id);
  // Registers, or registers again (a restarted agent keeps its id): status
  // online, heartbeat now.
  void register_agent(const std::string& execution_id, const AgentRegistration& registration,
                      std::int64_t now);
  void change(const std::string& execution_id, const AgentChanges& changes, std::int64_t now);
  // One page of registered agents, newest registration first (see page.hpp);
  // positions are the executions' rowids.
  Page<AgentRow> page(const AgentFilter& filter, const PageRequest& request);
  // Every registered agent whose execution is not final: the recipients a
  // broadcast may reach.
  std::vector<AgentRow> registered_active();

 private:
  Database& db_;
};

}  // namespace mission::store
