#include "daemon/execution/execution_registry.hpp"

#include <algorithm>
#include <filesystem>

#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/session_token.hpp"

namespace mission::daemon::execution {
namespace {

std::vector<std::string> checked_toolsets(const std::vector<std::string>& requested) {
  if (requested.empty()) return default_toolsets();
  const auto known = mcp::ToolCatalog::builtin().toolsets();
  std::vector<std::string> toolsets;
  for (const auto& name : requested) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string names;
      for (const auto& toolset : known) names += (names.empty() ? "" : ", ") + toolset;
      throw MissionError(ErrorCode::invalid_argument, "unknown toolset '" + name + "'",
                         "use toolsets among " + names, {{"available", known}});
    }
    if (std::find(toolsets.begin(), toolsets.end(), name) == toolsets.end()) {
      toolsets.push_back(name);
    }
  }
  return toolsets;
}

bool made_any_call(store::Database& db, const std::string& id) {
  auto s = db.prepare(
      "SELECT EXISTS (SELECT 1 FROM mcp_sessions WHERE execution_id = ?1 AND calls > 0) OR "
      "EXISTS (SELECT 1 FROM observations WHERE execution_id = ?1)");
  s.bind(1, id);
  s.step();
  return s.integer(0) != 0;
}

}  // namespace

CreatedExecution AgentExecutionRegistry::create(const CreateSpec& spec) {
  if (spec.delivery != kDeliveryMarker && spec.delivery != kDeliveryMcp) {
    throw MissionError(ErrorCode::invalid_argument, "unknown delivery '" + spec.delivery + "'",
                       "use stdout-marker or mcp-tool");
  }
  if (!std::filesystem::path(spec.cwd).is_absolute()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cwd must be an absolute path, got '" + spec.cwd + "'",
                       "pass the working directory as an absolute path");
  }
  CreatedExecution created;
  store::ExecutionRow& row = created.row;
  row.id = new_execution_id();
  row.kind = spec.kind;
  row.adapter = spec.adapter;
  row.delivery = spec.delivery;
  row.cwd = spec.cwd;
  row.command = nlohmann::json(spec.command).dump();
  row.state = spec.state;
  row.descriptor =
      build_protocol_descriptor({row.id, spec.cwd, spec.delivery, checked_toolsets(spec.toolsets)})
          .dump();
  row.created_at = row.updated_at = unix_ms_now();
  if (spec.delivery == kDeliveryMcp) {
    created.token = generate_session_token();
    auto digest = token_digest(*created.token);
    row.token_sha256.assign(reinterpret_cast<const char*>(digest.data()), digest.size());
  }
  store::ExecutionRepository(db_).insert(row);
  return created;
}

store::ExecutionRow AgentExecutionRegistry::require(const std::string& id) {
  auto row = store::ExecutionRepository(db_).find(id);
  if (!row) {
    throw MissionError(ErrorCode::not_found, "agent execution '" + id + "' does not exist",
                       "check the id with 'mission exec list'", {{"agentExecutionId", id}});
  }
  return *row;
}

store::ExecutionRow AgentExecutionRegistry::authorize_mcp(const std::string& id,
                                                          const std::string& token) {
  store::ExecutionRow row = require(id);
  if (row.delivery != kDeliveryMcp || row.token_sha256.empty()) {
    throw MissionError(ErrorCode::unauthorized,
                       "agent execution '" + id + "' uses " + row.delivery +
                           " delivery and has no MCP access",
                       "print markers on stdout instead, or create the execution with "
                       "--delivery mcp-tool");
  }
  if (token.empty()) {
    throw MissionError(ErrorCode::unauthorized, "no MCP session token was given for '" + id + "'",
                       "set MISSION_MCP_TOKEN to the token printed when the execution was created");
  }
  auto stored = std::span(reinterpret_cast<const std::uint8_t*>(row.token_sha256.data()),
                          row.token_sha256.size());
  if (!digest_matches(stored, token_digest(token))) {
    throw MissionError(ErrorCode::unauthorized, "wrong MCP session token for '" + id + "'",
                       "use the MISSION_MCP_TOKEN given with this execution");
  }
  if (is_final_state(row.state)) {
    throw MissionError(ErrorCode::execution_final,
                       "agent execution '" + id + "' is " + row.state + "; it takes no new sessions",
                       "start a new execution", {{"state", row.state}});
  }
  return row;
}

void AgentExecutionRegistry::end_attached(const std::string& id) {
  store::ExecutionRepository executions(db_);
  auto row = executions.find(id);
  if (!row || row->kind != kKindAttached || is_final_state(row->state)) return;
  if (!made_any_call(db_, id)) {
    // A probe (server/discover, a health check listing tools) recorded
    // nothing; keeping it would list a "lost" execution per probe.
    executions.remove(id);
    return;
  }
  auto claim = store::ObservationRepository(db_).last_claim_kind(id);
  std::string_view final_state = !claim                       ? kLost
                                 : *claim == "completed_claim" ? kCompleted
                                                               : kFailed;
  row->state = std::string(final_state);
  row->ended_at = row->updated_at = unix_ms_now();
  executions.update(*row);
}

}  // namespace mission::daemon::execution
