#pragma once
// Persistence of request_id records (the idempotency_records table): which
// mutating call of one execution a request_id named, and its result once
// done. A record belongs to the execution that made it (migration 4).

#include <cstdint>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::store {

// When a record expires: never, for a TTL of 0 (no pruning).
inline constexpr std::int64_t kNeverExpires = INT64_MAX;

struct IdempotencyRow {
  std::string execution_id;
  std::string request_id;
  std::string tool;
  std::string payload_sha256;  // 32 raw bytes
  bool completed = false;      // false: the first call is still running
  std::optional<std::string> result;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
};

class IdempotencyRepository {
 public:
  explicit IdempotencyRepository(Database& db) : db_(db) {}

  std::optional<IdempotencyRow> find(const std::string& execution_id,
                                     const std::string& request_id);
  // Inserts or replaces the record of (execution_id, request_id).
  void put(const IdempotencyRow& row);
  void remove(const std::string& execution_id, const std::string& request_id);
  // Deletes the records expired at `now`; returns how many.
  int prune(std::int64_t now);
  // How many records `prune(now)` would delete.
  std::int64_t count_expired(std::int64_t now);
  // In-progress records name work that died with the previous daemon.
  int remove_in_progress();

 private:
  Database& db_;
};

}  // namespace mission::store
