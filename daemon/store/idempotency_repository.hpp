#pragma once
// Persistence of request_id records (the idempotency_records table): which
// mutating tracking call a request_id named, and its result once done.

#include <cstdint>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::store {

struct IdempotencyRow {
  std::string request_id;
  std::string tool;
  std::string payload_sha256;  // 32 raw bytes
  std::string state;           // in_progress or completed
  std::optional<std::string> result;
  std::optional<std::string> execution_id;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
};

class IdempotencyRepository {
 public:
  explicit IdempotencyRepository(Database& db) : db_(db) {}

  std::optional<IdempotencyRow> find(const std::string& request_id);
  // Inserts or replaces the record of row.request_id.
  void put(const IdempotencyRow& row);
  void remove(const std::string& request_id);
  // Deletes the records expired at `now`; returns how many.
  int prune(std::int64_t now);
  // In-progress records name work that died with the previous daemon.
  int remove_in_progress();

 private:
  Database& db_;
};

}  // namespace mission::store
