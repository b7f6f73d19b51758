#include "daemon/store/idempotency_repository.hpp"

namespace mission::store {

std::optional<IdempotencyRow> IdempotencyRepository::find(const std::string& request_id) {
  auto s = db_.cached(
      "SELECT request_id, tool, payload_sha256, state, result, execution_id, created_at, "
      "expires_at FROM idempotency_records WHERE request_id = ?");
  s.bind(1, request_id);
  if (!s.step()) return std::nullopt;
  IdempotencyRow row;
  row.request_id = s.text(0);
  row.tool = s.text(1);
  row.payload_sha256 = s.blob(2);
  row.state = s.text(3);
  row.result = s.optional_text(4);
  row.execution_id = s.optional_text(5);
  row.created_at = s.integer(6);
  row.expires_at = s.integer(7);
  return row;
}

void IdempotencyRepository::put(const IdempotencyRow& row) {
  db_.cached(
         "INSERT OR REPLACE INTO idempotency_records (request_id, tool, payload_sha256, state, "
         "result, execution_id, created_at, expires_at) VALUES (?,?,?,?,?,?,?,?)")
      .bind(1, row.request_id)
      .bind(2, row.tool)
      .bind_blob(3, row.payload_sha256.data(), row.payload_sha256.size())
      .bind(4, row.state)
      .bind(5, row.result)
      .bind(6, row.execution_id)
      .bind(7, row.created_at)
      .bind(8, row.expires_at)
      .run();
}

void IdempotencyRepository::remove(const std::string& request_id) {
  db_.cached("DELETE FROM idempotency_records WHERE request_id = ?").bind(1, request_id).run();
}

int IdempotencyRepository::prune(std::int64_t now) {
  db_.prepare("DELETE FROM idempotency_records WHERE expires_at <= ?").bind(1, now).run();
  return db_.changes();
}

int IdempotencyRepository::remove_in_progress() {
  db_.prepare("DELETE FROM idempotency_records WHERE state = 'in_progress'").run();
  return db_.changes();
}

}  // namespace mission::store
