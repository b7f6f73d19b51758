#pragma once
// What the daemon gives the agents it runs itself, the workflow runner's
// and the control toolset's attempts alike: the loop (for pool work and
// timers), the store, the event sink, the launcher, the runtime paths and
// the planned workflows' DAGs.

#include <uv.h>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/store/database.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::runs {

struct RunServices {
  uv_loop_t* loop;
  store::Database& db;
  events::EventSink& events;
  execution::Launcher& launcher;
  const RuntimePaths& paths;
  planning::PlanCache& plans;
  // The watched trees, which follow the running tasks' worktrees (live
  // conflicts); null: none are watched.
  git::TreeWatchService* trees = nullptr;
};

}  // namespace mission::daemon::runs
