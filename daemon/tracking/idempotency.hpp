#pragma once
// request_id on mutating tools (DESIGN.md section 5): the same key with the
// same payload answers the first result again without a second effect; the
// same key with another payload is idempotency_conflict; a key whose first
// call is still running is idempotency_in_progress. Keys belong to the
// execution that sent them: another execution's same key is another call.
// Records expire (completed after IdempotencySettings::completed_ttl_ms, in
// progress after in_progress_ttl_ms; 0 keeps them) and are pruned.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::tracking {

struct IdempotencySettings {
  std::int64_t completed_ttl_ms = limits::kIdempotencyTtlMs;           // 0: kept until removed
  std::int64_t in_progress_ttl_ms = limits::kIdempotencyPendingTtlMs;  // 0: never stale
};

class IdempotencyKey {
 public:
  // `arguments` may carry request_id; it is not part of the payload.
  IdempotencyKey(std::string execution_id, std::string request_id, std::string tool,
                 const nlohmann::json& arguments);

  // The stored result of the same call made before, or nullopt when this
  // call should run. Throws idempotency_conflict or idempotency_in_progress.
  std::optional<nlohmann::json> replay(store::Database& db) const;
  // Marks the call as running (for work that finishes later).
  void reserve(store::Database& db, const IdempotencySettings& settings) const;
  // Stores the call's result.
  void complete(store::Database& db, const IdempotencySettings& settings,
                const nlohmann::json& result) const;
  // Forgets a reservation whose call failed, so the key can run again.
  void release(store::Database& db) const;

 private:
  std::string execution_id_;
  std::string request_id_;
  std::string tool_;
  std::string digest_;  // SHA-256 of the tool name and the payload
};

// Deletes expired records; returns how many.
int prune_idempotency_records(store::Database& db, std::int64_t now_ms);

}  // namespace mission::daemon::tracking
