#pragma once
// What an MCP session may touch of the daemon, and nothing more.

#include <uv.h>

#include "daemon/events/event_bus.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/runs/attempt_control.hpp"
#include "daemon/runs/live_conflicts.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"

namespace mission::daemon::mcp {

struct SessionServices {
  store::Database& db;
  events::EventBus& events;  // also heard by the session's message_wait
  uv_loop_t* loop;           // for the thread-pool work of deferred tools
  const tracking::IdempotencySettings& idempotency;
  git::TreeWatchService* trees;              // the watched trees, for snapshots; may be null
  planning::PlanCache* plans = nullptr;      // planned workflows' DAGs; may be null
  runs::AttemptControl* attempts = nullptr;  // the control toolset's attempts; may be null
  // True once the daemon is stopping: a session it closes then was not
  // ended by its client.
  const bool* daemon_stopping = nullptr;
  const execution::Launcher* launcher = nullptr;  // the launched processes; may be null
  // The runs' live conflicts, for workspace_conflicts; may be null.
  const runs::LiveConflicts* live_conflicts = nullptr;
};

}  // namespace mission::daemon::mcp
