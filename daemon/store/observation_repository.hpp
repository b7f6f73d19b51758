#pragma once
// Persistence of the observation ledger (the observations table). The
// UNIQUE (execution_id, event_id) constraint is the idempotency guarantee.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

struct ObservationRow {
  std::int64_t id = 0;
  std::string execution_id;
  std::string event_id;
  std::string origin;
  std::string kind;
  std::string payload;  // JSON
  std::string status;
  std::optional<std::string> reason;
  std::int64_t created_at = 0;
};

class ObservationRepository {
 public:
  explicit ObservationRepository(Database& db) : db_(db) {}

  // Inserts `row` and returns its id, or nullopt if (execution_id, event_id)
  // is already recorded.
  std::optional<std::int64_t> insert_unique(const ObservationRow& row);
  std::optional<ObservationRow> find(const std::string& execution_id, const std::string& event_id);
  // Oldest first, ids greater than `after_id`, at most `limit`.
  std::vector<ObservationRow> list(const std::string& execution_id, std::int64_t after_id,
                                   std::size_t limit);
  std::int64_t count(const std::string& execution_id);
  // The kind of the execution's latest completed_claim or failed_claim.
  std::optional<std::string> last_claim_kind(const std::string& execution_id);
  // The newest accepted observation of one of `kinds` (needs_input, blocked).
  std::optional<ObservationRow> last_accepted(const std::string& execution_id,
                                              const std::string& kind_a, const std::string& kind_b);
  std::int64_t count_all();

 private:
  Database& db_;
};

}  // namespace mission::store
