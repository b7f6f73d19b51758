#pragma once
// Lookup, creation and MCP authorization of AgentExecutions. Everything that
// asks "which execution, and may this caller speak for it" comes here.

#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"

namespace mission::daemon::execution {

struct CreateSpec {
  std::string kind;      // launched, external or attached
  std::string adapter = "generic";
  std::string delivery;  // stdout-marker or mcp-tool
  std::string cwd;       // absolute
  std::vector<std::string> command;
  std::vector<std::string> toolsets;  // empty: the default toolsets
  std::string state = "created";
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

  // Validates the spec (delivery, toolsets, cwd) and records a new execution.
  CreatedExecution create(const CreateSpec& spec);

  // The execution, or MissionError not_found.
  store::ExecutionRow require(const std::string& id);

  // The execution an MCP bridge may attach to with `token`: it must exist,
  // use mcp-tool delivery, match the token and not be final.
  store::ExecutionRow authorize_mcp(const std::string& id, const std::string& token);

  // Called when the last MCP session of an `attached` execution ends: it
  // ends too, completed or failed after a matching claim, else lost. One
  // that made no tool call at all (a probe) is removed instead.
  void end_attached(const std::string& id);

 private:
  store::Database& db_;
};

}  // namespace mission::daemon::execution
