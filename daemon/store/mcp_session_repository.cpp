#include "daemon/store/mcp_session_repository.hpp"

#include "shared/clock.hpp"

namespace mission::store {

std::int64_t McpSessionRepository::insert(const std::string& execution_id,
                                          std::int64_t attached_at) {
  auto s = db_.prepare(
      "INSERT INTO mcp_sessions (execution_id, attached_at) VALUES (?1, ?2) RETURNING id");
  s.bind(1, execution_id).bind(2, attached_at);
  s.step();
  return s.integer(0);
}

void McpSessionRepository::set_client(std::int64_t id, const std::string& name,
                                      const std::string& version,
                                      const std::string& protocol_version) {
  auto s = db_.prepare(
      "UPDATE mcp_sessions SET client_name = ?2, client_version = ?3, protocol_version = ?4 "
      "WHERE id = ?1");
  s.bind(1, id).bind(2, name).bind(3, version).bind(4, protocol_version);
  s.run();
}

void McpSessionRepository::count_call(std::int64_t id) {
  // The same write records a sign of life of the agent (ADR 17).
  auto s =
      db_.prepare("UPDATE mcp_sessions SET calls = calls + 1, last_call_at = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, unix_ms_now());
  s.run();
}

void McpSessionRepository::count_tool_list(std::int64_t id) {
  auto s = db_.prepare("UPDATE mcp_sessions SET tool_lists = tool_lists + 1 WHERE id = ?1");
  s.bind(1, id);
  s.run();
}

void McpSessionRepository::detach(std::int64_t id, std::int64_t detached_at) {
  auto s = db_.prepare("UPDATE mcp_sessions SET detached_at = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, detached_at);
  s.run();
}

void McpSessionRepository::detach_all(std::int64_t detached_at) {
  auto s = db_.prepare("UPDATE mcp_sessions SET detached_at = ?1 WHERE detached_at IS NULL");
  s.bind(1, detached_at);
  s.run();
}

std::vector<McpSessionRow> McpSessionRepository::list_for_execution(
    const std::string& execution_id) {
  auto s = db_.prepare(
      "SELECT id, execution_id, client_name, client_version, protocol_version, attached_at, "
      "detached_at, calls, tool_lists FROM mcp_sessions WHERE execution_id = ?1 ORDER BY id");
  s.bind(1, execution_id);
  std::vector<McpSessionRow> rows;
  while (s.step()) {
    McpSessionRow row;
    row.id = s.integer(0);
    row.execution_id = s.text(1);
    row.client_name = s.optional_text(2);
    row.client_version = s.optional_text(3);
    row.protocol_version = s.optional_text(4);
    row.attached_at = s.integer(5);
    row.detached_at = s.optional_integer(6);
    row.calls = s.integer(7);
    row.tool_lists = s.integer(8);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::int64_t McpSessionRepository::count_attached(const std::string& execution_id) {
  auto s = db_.prepare(
      "SELECT count(*) FROM mcp_sessions WHERE execution_id = ?1 AND detached_at IS NULL");
  s.bind(1, execution_id);
  s.step();
  return s.integer(0);
}

}  // namespace mission::store
