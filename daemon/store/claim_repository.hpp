#pragma once
// Claims as leases (docs/adr/0019): a planned task is held by at most one
// execution (tasks.claimed_by). Taking one is a single conditional UPDATE,
// so however many agents race exactly one wins; the claim ends by release,
// by the task ending, by its execution ending (a trigger of migration 8),
// or when an agent we did not launch goes silent for the lease time.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct ClaimRow {
  std::string task_id;
  std::string task_name;
  std::string workflow_id;
  std::string execution_id;
  std::int64_t claimed_at = 0;
  TaskStatus status = TaskStatus::pending;
};

// A task free to claim, as task_get_available lists it.
struct AvailableTaskRow {
  std::string id;
  std::string workflow_id;
  std::string name;
  std::string description;
  std::int64_t sequence = 0;
  std::optional<std::string> parallel_group;
  std::optional<std::string> complexity;
  std::string files_likely_affected = "[]";  // JSON array
  std::string required_capabilities = "[]";  // JSON array
  TaskStatus status = TaskStatus::pending;
  std::int64_t position = 0;  // rowid, in plan order within a workflow
};

class ClaimRepository {
 public:
  explicit ClaimRepository(Database& db) : db_(db) {}

  // Claims `task_id` for `execution_id` if nobody holds it and it is a
  // pending or failed planned task; the claimer becomes its owner. One
  // statement: true for exactly one of any number of racing callers.
  bool try_claim(const std::string& task_id, const std::string& execution_id, std::int64_t now);
  // Whoever starts a planned task holds it, so it is never in progress
  // without a live holder: claims it for `execution_id` when nobody holds
  // it; throws already_claimed when another execution does.
  void hold_to_start(const std::string& task_id, const std::string& execution_id, std::int64_t now);
  // The task's claim, if it has one.
  std::optional<ClaimRow> claim_of(const std::string& task_id);
  // The claims `execution_id` holds, oldest first.
  std::vector<ClaimRow> claims_of(const std::string& execution_id);
  // Ends the claim of `task_id` held by `execution_id`: the task goes back
  // to pending if it was in progress, and a recovery checkpoint saying
  // `summary` (with `reason` in its detail) joins its journal. False if
  // that execution did not hold it.
  bool release(const std::string& task_id, const std::string& execution_id,
               const std::string& reason, const std::string& summary, std::int64_t now);
  // Claims held by executions mission did not launch whose last sign of
  // life (heartbeat, MCP call, or the claim itself) is older than
  // `now - lease_ms`.
  std::vector<ClaimRow> expired(std::int64_t now, std::int64_t lease_ms);
  // Pending or failed planned tasks nobody holds, of open workflows (all, or
  // `workflow_id`), whose required capabilities (task context
  // `required_capabilities`) are all in `capabilities` (a JSON array), past
  // position `after`, in plan order. Prerequisites are not checked here.
  std::vector<AvailableTaskRow> unclaimed(const std::optional<std::string>& workflow_id,
                                          const std::string& capabilities, std::int64_t after,
                                          std::size_t limit);

 private:
  Database& db_;
};

}  // namespace mission::store
