#pragma once
// What mission keeps, and for how long (missiond(8), RETENTION): the output
// logs of executions that have ended, ended executions themselves with
// their observations and sessions, and the daemon's own log. The sweep runs
// beside the request_id prune (at start-up and every
// limits::kRetentionSweepIntervalMs) and on `mission gc`.

#include <cstdint>
#include <filesystem>

#include "daemon/store/database.hpp"
#include "shared/limits.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::execution {

struct RetentionSettings {
  // The log of an execution that ended longer ago than this is deleted
  // (0 keeps logs for ever).
  std::int64_t final_logs_ms = limits::kFinalLogRetentionMs;
  // An execution that ended longer ago than this is deleted with its
  // observations and MCP sessions; what it tracked stays (0 keeps them).
  std::int64_t final_executions_ms = limits::kFinalExecutionRetentionMs;
  // missiond.log is moved to missiond.log.1 once larger than this (0
  // never): at most twice this on disk.
  std::uint64_t daemon_log_bytes = limits::kDaemonLogMaxBytes;
};

struct SweepReport {
  std::int64_t logs_removed = 0;
  std::uint64_t log_bytes_freed = 0;
  std::int64_t executions_removed = 0;
  std::int64_t observations_removed = 0;
  std::uint64_t daemon_log_bytes_rotated = 0;
};

// Applies `settings` as of `now`. With `dry_run` nothing changes and the
// report says what would be freed. Database work runs in one transaction
// on the caller's thread (the loop); file removal follows the commit.
SweepReport sweep(store::Database& db, const RuntimePaths& paths, const RetentionSettings& settings,
                  std::int64_t now, bool dry_run);

}  // namespace mission::daemon::execution
