#pragma once
// What an MCP session may touch of the daemon, and nothing more.

#include <uv.h>

#include "daemon/events/event_sink.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"

namespace mission::daemon::mcp {

struct SessionServices {
  store::Database& db;
  events::EventSink& events;
  uv_loop_t* loop;  // for the thread-pool work of deferred tools
  const tracking::IdempotencySettings& idempotency;
};

}  // namespace mission::daemon::mcp
