#include "daemon/execution/execution_registry.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "daemon/execution/observation_policy.hpp"
#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/record_id.hpp"
#include "shared/session_token.hpp"

namespace mission::daemon::execution {
namespace {

std::vector<Toolset> effective_toolsets(const std::vector<Toolset>& requested) {
  if (requested.empty()) return {default_toolsets().begin(), default_toolsets().end()};
  std::vector<Toolset> toolsets;
  for (Toolset toolset : requested) {
    if (std::find(toolsets.begin(), toolsets.end(), toolset) == toolsets.end()) {
      toolsets.push_back(toolset);
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

void check_working_directory(const std::string& cwd) {
  if (cwd.find('\0') != std::string::npos) {
    throw MissionError(ErrorCode::invalid_argument, "the working directory contains a NUL byte",
                       "pass the path of an existing directory");
  }
  if (!std::filesystem::path(cwd).is_absolute()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the working directory must be an absolute path, got '" + cwd + "'",
                       "pass the working directory as an absolute path");
  }
  struct stat info {};
  if (::stat(cwd.c_str(), &info) != 0) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the working directory " + cwd + " cannot be used: " + std::strerror(errno),
                       "create it, or pass the path of an existing directory");
  }
  if (!S_ISDIR(info.st_mode)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the working directory " + cwd + " is not a directory",
                       "pass the path of an existing directory");
  }
}

CreatedExecution AgentExecutionRegistry::create(const CreateSpec& spec) {
  check_working_directory(spec.cwd);
  CreatedExecution created;
  store::ExecutionRow& row = created.row;
  row.id = new_execution_id();
  row.kind = spec.kind;
  row.adapter = spec.adapter;
  row.delivery = spec.delivery;
  row.cwd = spec.cwd;
  row.command =
      nlohmann::json(spec.command).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  row.state = spec.state;
  row.descriptor = build_protocol_descriptor(
                       {row.id, spec.cwd, spec.delivery, effective_toolsets(spec.toolsets)})
                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  row.created_at = row.updated_at = unix_ms_now();
  if (spec.delivery == Delivery::mcp_tool) {
    created.token = generate_session_token();
    auto digest = token_digest(*created.token);
    row.token_sha256.assign(reinterpret_cast<const char*>(digest.data()), digest.size());
  }
  store::ExecutionRepository executions(db_);
  executions.insert(row);
  if (spec.name) executions.set_name(row.id, *spec.name);
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
  if (row.delivery != Delivery::mcp_tool || row.token_sha256.empty()) {
    throw MissionError(ErrorCode::unauthorized,
                       "agent execution '" + id + "' uses " + std::string(name_of(row.delivery)) +
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
  if (is_final(row.state)) {
    throw MissionError(ErrorCode::execution_final,
                       "agent execution '" + id + "' is " + std::string(name_of(row.state)) +
                           "; it takes no new sessions",
                       "start a new execution", {{"state", row.state}});
  }
  return row;
}

bool AgentExecutionRegistry::end_attached(const std::string& id, bool daemon_stopping) {
  store::ExecutionRepository executions(db_);
  auto row = executions.find(id);
  if (!row) return false;
  if (row->kind != ExecutionKind::attached || is_final(row->state)) return true;
  if (!made_any_call(db_, id)) {
    // A probe (server/discover, a health check listing tools) recorded
    // nothing; keeping it would list a "lost" execution per probe.
    executions.remove(id);
    return false;
  }
  const auto claim = store::ObservationRepository(db_).last_claim(id);
  row->state =
      daemon_stopping && !claim ? ExecutionState::cancelled : final_state_after_session(claim);
  row->ended_at = row->updated_at = unix_ms_now();
  executions.update(*row);
  return true;
}

bool AgentExecutionRegistry::cancel_unowned(const std::string& id) {
  store::ExecutionRow row = require(id);
  if (is_final(row.state)) return false;
  row.state = ExecutionState::cancelled;
  row.ended_at = row.updated_at = unix_ms_now();
  store::ExecutionRepository(db_).update(row);
  return true;
}

}  // namespace mission::daemon::execution
