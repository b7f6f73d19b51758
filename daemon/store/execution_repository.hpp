#pragma once
// Persistence of AgentExecution records (the executions table).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct ExecutionRow {
  std::string id;
  std::string adapter;
  Delivery delivery = Delivery::stdout_marker;
  std::string descriptor;  // JSON
  std::string cwd;
  std::string command;  // JSON array
  ExecutionState state = ExecutionState::created;
  std::optional<std::int64_t> pid;
  std::optional<std::int64_t> exit_code;
  std::optional<std::int64_t> exit_signal;
  std::string token_sha256;  // raw 32 bytes, or empty
  std::int64_t created_at = 0;
  std::optional<std::int64_t> started_at;
  std::optional<std::int64_t> ended_at;
  std::int64_t updated_at = 0;
  ExecutionKind kind = ExecutionKind::launched;
  // How a launched agent runs (sandbox::confinement_state()); none for
  // one the daemon did not launch.
  std::optional<std::string> sandbox;
};

class ExecutionRepository {
 public:
  explicit ExecutionRepository(Database& db) : db_(db) {}

  void insert(const ExecutionRow& row);
  // Writes every mutable column of `row` (state, pid, exit, timestamps).
  void update(const ExecutionRow& row);
  // Replaces the recorded command (a JSON array), once an adapter has
  // prepared the argv that actually runs.
  void set_command(const std::string& id, const std::string& command);
  // Records how the launched agent runs: confined, or why not.
  void set_sandbox(const std::string& id, const std::string& sandbox);
  std::optional<ExecutionRow> find(const std::string& id);
  // The name people call the execution by (mission run --name), which is
  // also the name an agent registers under.
  void set_name(const std::string& id, const std::string& name);
  // The id of the execution created last, if there is one.
  std::optional<std::string> latest_id();
  // The id of the execution created last with this name.
  std::optional<std::string> latest_named(const std::string& name);
  // Up to `limit` ids that start with `prefix`, in id order.
  std::vector<std::string> ids_with_prefix(const std::string& prefix, std::size_t limit);
  // Marks every launched execution still in one of `states` lost (its
  // process belonged to a daemon that is gone); returns how many.
  int mark_launched_lost(std::span<const ExecutionState> states, std::int64_t now);
  // Deletes the execution with its observations and MCP sessions.
  void remove(const std::string& id);
  // One page of executions, all or only those in `state` (see page.hpp);
  // positions are rowids, in creation order.
  Page<ExecutionRow> page(std::optional<ExecutionState> state, const PageRequest& request);
  std::vector<ExecutionRow> list_in_states(std::span<const ExecutionState> states);
  struct Counts {
    std::int64_t total = 0;
    std::int64_t in_states = 0;
  };
  // Every execution, and those in `states`, in one pass over the table.
  Counts count(std::span<const ExecutionState> states);

 private:
  Database& db_;
};

}  // namespace mission::store
