#pragma once
// Planned workflows' task DAGs, loaded from the store and kept while they
// are current. Every change to a planned task bumps its workflow's
// plan_revision (a trigger does it for the tracking tools' updates, and for
// claims taken and ended), so one indexed read tells whether a kept state
// is stale. A stale state whose tasks are still the same (same ids in the
// same order: the plan was not replaced) is brought up to date instead of
// reloaded: one narrow read of every task's status, times and claim, the
// outcome of those that changed, and the workflow's status and
// parallelism; the DAG, names and files stay.
// Only tools that do not write read through the cache: a writer loads
// afresh, so nothing a rolled-back transaction saw is ever kept.

#include <list>
#include <memory>
#include <string>

#include "daemon/planning/plan_state.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::planning {

// Loads the workflow's planned tasks and their DAG from the store.
PlanState load_plan_state(store::Database& db, const std::string& workflow_id);

// The summary of a stored outcome (its "summary", or the text itself).
std::optional<std::string> outcome_summary(const std::optional<std::string>& outcome);

class PlanCache {
 public:
  // The current state of `workflow_id`, loaded when the kept one is stale.
  std::shared_ptr<const PlanState> get(store::Database& db, const std::string& workflow_id);
  // Full loads, and stale states brought up to date without one.
  std::size_t loads() const { return loads_; }
  std::size_t refreshes() const { return refreshes_; }
  // The kept state of `workflow_id` as it is, current or not, without
  // loading: for a writer that needs only the DAG's shape (fixed once the
  // plan is set, and a replaced plan has other task ids) and reads the
  // statuses it needs itself.
  std::shared_ptr<const PlanState> peek(const std::string& workflow_id) const;

 private:
  struct Entry {
    std::string workflow_id;
    std::int64_t revision = 0;
    std::shared_ptr<PlanState> state;
  };
  // Brings `entry` up to date; false when its tasks are no longer the plan's.
  bool refresh(store::Database& db, Entry& entry);

  std::list<Entry> entries_;  // most recently used first
  std::size_t loads_ = 0;
  std::size_t refreshes_ = 0;
};

// Through `cache` when there is one, else loaded afresh.
std::shared_ptr<const PlanState> plan_state(PlanCache* cache, store::Database& db,
                                            const std::string& workflow_id);

}  // namespace mission::daemon::planning
