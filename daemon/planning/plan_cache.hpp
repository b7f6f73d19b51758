#pragma once
// Planned workflows' task DAGs, loaded from the store and kept while they
// are current. Every change to a planned task bumps its workflow's
// plan_revision (a trigger does it for the tracking tools' updates too), so
// one indexed read tells whether a kept state is stale. Only tools that do
// not write read through the cache: a writer loads afresh, so nothing a
// rolled-back transaction saw is ever kept.

#include <list>
#include <memory>
#include <string>

#include "daemon/planning/plan_state.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::planning {

// Loads the workflow's planned tasks and their DAG from the store.
PlanState load_plan_state(store::Database& db, const std::string& workflow_id);

class PlanCache {
 public:
  // The current state of `workflow_id`, loaded when the kept one is stale.
  std::shared_ptr<const PlanState> get(store::Database& db, const std::string& workflow_id);
  std::size_t loads() const { return loads_; }

 private:
  struct Entry {
    std::string workflow_id;
    std::int64_t revision = 0;
    std::shared_ptr<const PlanState> state;
  };
  std::list<Entry> entries_;  // most recently used first
  std::size_t loads_ = 0;
};

// Through `cache` when there is one, else loaded afresh.
std::shared_ptr<const PlanState> plan_state(PlanCache* cache, store::Database& db,
                                            const std::string& workflow_id);

}  // namespace mission::daemon::planning
