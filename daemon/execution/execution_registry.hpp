#pragma once
// Lookup, creation and MCP authorization of AgentExecutions. Everything that
// asks "which execution, and may this caller speak for it" comes here.

#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::execution {

struct CreateSpec {
  ExecutionKind kind = ExecutionKind::external;
  std::string adapter = "generic";
  Delivery delivery = Delivery::stdout_marker;
  std::string cwd;  // absolute, an existing directory
  std::vector<std::string> command;
  std::vector<Toolset> toolsets;  // empty: the default toolsets
  ExecutionState state = ExecutionState::created;
  std::optional<std::string> name;  // mission run --name
};

struct CreatedExecution {
  store::ExecutionRow row;
  // Present only for mcp-tool delivery. Returned once to the creator and
  // never stored: the store keeps its SHA-256.
  std::optional<std::string> token;
};

class AgentExecutionRegistry {
 public:
  explicit AgentExecutionRegistry(store::Database& db) : db_(db) {}

  // Checks the spec's cwd and records a new execution.
  CreatedExecution create(const CreateSpec& spec);

  // The execution, or MissionError not_found.
  store::ExecutionRow require(const std::string& id);

  // The execution an MCP bridge may attach to with `token`: it must exist,
  // use mcp-tool delivery, match the token and not be final.
  store::ExecutionRow authorize_mcp(const std::string& id, const std::string& token);

  // Called when the last MCP session of an `attached` execution ends: it
  // ends too, completed or failed after a matching claim, else completed
  // (ADR 0024), or cancelled when the daemon cut the session because it was
  // stopping (the agent did not finish). One that made no tool call at
  // all (a probe) is removed instead. Returns whether the execution still
  // exists.
  bool end_attached(const std::string& id, bool daemon_stopping = false);

  // Ends an execution nothing of ours runs for (created or external) as
  // cancelled; false if it was already final.
  bool cancel_unowned(const std::string& id);

 private:
  store::Database& db_;
};

// Throws invalid_argument unless `cwd` is an absolute path of an existing
// directory with no NUL byte: every execution's snapshots and launches
// happen there.
void check_working_directory(const std::string& cwd);

}  // namespace mission::daemon::execution
