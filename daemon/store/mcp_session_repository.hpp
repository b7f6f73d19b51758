#pragma once
// Persistence of MCP sessions (the mcp_sessions table): which client attached
// to which execution, with what protocol version, and how much it used.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

struct McpSessionRow {
  std::int64_t id = 0;
  std::string execution_id;
  std::optional<std::string> client_name;
  std::optional<std::string> client_version;
  std::optional<std::string> protocol_version;
  std::int64_t attached_at = 0;
  std::optional<std::int64_t> detached_at;
  std::int64_t calls = 0;
  std::int64_t tool_lists = 0;
};

class McpSessionRepository {
 public:
  explicit McpSessionRepository(Database& db) : db_(db) {}

  // Records a new attached session and returns its id.
  std::int64_t insert(const std::string& execution_id, std::int64_t attached_at);
  void set_client(std::int64_t id, const std::string& name, const std::string& version,
                  const std::string& protocol_version);
  void count_call(std::int64_t id);
  void count_tool_list(std::int64_t id);
  void detach(std::int64_t id, std::int64_t detached_at);
  // Sessions cannot outlive the daemon; run at start-up.
  void detach_all(std::int64_t detached_at);
  // Oldest first.
  std::vector<McpSessionRow> list_for_execution(const std::string& execution_id);
  std::int64_t count_attached(const std::string& execution_id);

 private:
  Database& db_;
};

}  // namespace mission::store
