#include "daemon/store/migrations.hpp"

#include <array>
#include <string>

#include "shared/error_code.hpp"

namespace mission::store {
namespace {

// Append only: never edit a migration that has shipped; add the next one.
constexpr std::array<const char*, 2> kMigrations{
    // 1: executions and their observation ledger.
    R"sql(
CREATE TABLE executions (
  id            TEXT PRIMARY KEY,
  adapter       TEXT NOT NULL,
  delivery      TEXT NOT NULL CHECK (delivery IN ('stdout-marker', 'mcp-tool')),
  descriptor    TEXT NOT NULL,           -- protocol descriptor, JSON
  cwd           TEXT NOT NULL,
  command       TEXT NOT NULL,           -- argv, JSON array
  state         TEXT NOT NULL,
  pid           INTEGER,
  exit_code     INTEGER,
  exit_signal   INTEGER,
  token_sha256  BLOB,                    -- never the token itself
  created_at    INTEGER NOT NULL,        -- unix milliseconds
  started_at    INTEGER,
  ended_at      INTEGER,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX executions_by_state ON executions(state);

CREATE TABLE observations (
  id            INTEGER PRIMARY KEY,
  execution_id  TEXT NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
  event_id      TEXT NOT NULL,
  origin        TEXT NOT NULL,           -- mcp-tool, stdout-marker, daemon
  kind          TEXT NOT NULL,           -- signal type, or diagnostic
  payload       TEXT NOT NULL,           -- JSON
  status        TEXT NOT NULL,           -- accepted, rejected, recorded-only, promoted
  reason        TEXT,
  created_at    INTEGER NOT NULL,
  UNIQUE (execution_id, event_id)
);
)sql",
    // 2: how an execution came to be, and the MCP sessions attached to it.
    R"sql(
-- launched: the daemon spawned it; external: created to be launched
-- elsewhere; attached: created by an MCP client attaching without an id,
-- and ended when that session ends.
ALTER TABLE executions ADD COLUMN kind TEXT NOT NULL DEFAULT 'launched'
  CHECK (kind IN ('launched', 'external', 'attached'));

CREATE TABLE mcp_sessions (
  id                INTEGER PRIMARY KEY,
  execution_id      TEXT NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
  client_name       TEXT,
  client_version    TEXT,
  protocol_version  TEXT,
  attached_at       INTEGER NOT NULL,   -- unix milliseconds
  detached_at       INTEGER,
  calls             INTEGER NOT NULL DEFAULT 0,  -- tools/call requests
  tool_lists        INTEGER NOT NULL DEFAULT 0   -- tools/list requests
);
CREATE INDEX mcp_sessions_by_execution ON mcp_sessions(execution_id);
)sql",
};

}  // namespace

int latest_schema_version() { return static_cast<int>(kMigrations.size()); }

int schema_version(Database& db) {
  auto statement = db.prepare("PRAGMA user_version");
  statement.step();
  return static_cast<int>(statement.integer(0));
}

void migrate(Database& db) {
  int current = schema_version(db);
  if (current > latest_schema_version()) {
    throw MissionError(ErrorCode::internal,
                       "database " + db.path().string() + " has schema version " +
                           std::to_string(current) + ", newer than this missiond understands (" +
                           std::to_string(latest_schema_version()) + ")",
                       "run the newer missiond, or point MISSION_STATE_DIR elsewhere");
  }
  for (int version = current + 1; version <= latest_schema_version(); ++version) {
    Transaction transaction(db);
    db.exec(kMigrations[static_cast<std::size_t>(version - 1)]);
    db.exec("PRAGMA user_version = " + std::to_string(version));
    transaction.commit();
  }
}

}  // namespace mission::store
