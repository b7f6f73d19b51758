#include "daemon/store/idempotency_repository.hpp"

namespace mission::store {

std::optional<IdempotencyRow> IdempotencyRepository::find(const std::string& execution_id,
                                                          const std::string& request_id) {
  auto s = db_.prepare(
      "SELECT execution_id, request_id, tool, payload_sha256, state, result, created_at, "
      "expires_at FROM idempotency_records WHERE execution_id = ?1 AND request_id = ?2");
  s.bind(1, execution_id).bind(2, request_id);
  if (!s.step()) return std::nullopt;
  IdempotencyRow row;
  row.execution_id = s.text(0);
  row.request_id = s.text(1);
  row.tool = s.text(2);
  row.payload_sha256 = s.blob(3);
  row.completed = s.text(4) == "completed";
  row.result = s.optional_text(5);
  row.created_at = s.integer(6);
  row.expires_at = s.integer(7);
  return row;
}

void IdempotencyRepository::put(const IdempotencyRow& row) {
  db_.prepare(
         "INSERT INTO idempotency_records (execution_id, request_id, tool, payload_sha256, "
         "state, result, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
         "ON CONFLICT (execution_id, request_id) DO UPDATE SET tool = excluded.tool, "
         "payload_sha256 = excluded.payload_sha256, state = excluded.state, "
         "result = excluded.result, created_at = excluded.created_at, "
         "expires_at = excluded.expires_at")
      .bind(1, row.execution_id)
      .bind(2, row.request_id)
      .bind(3, row.tool)
      .bind_blob(4, row.payload_sha256.data(), row.payload_sha256.size())
      .bind(5, std::string_view(row.completed ? "completed" : "in_progress"))
      .bind(6, row.result)
      .bind(7, row.created_at)
      .bind(8, row.expires_at)
      .run();
}

void IdempotencyRepository::remove(const std::string& execution_id, const std::string& request_id) {
  db_.prepare("DELETE FROM idempotency_records WHERE execution_id = ?1 AND request_id = ?2")
      .bind(1, execution_id)
      .bind(2, request_id)
      .run();
}

int IdempotencyRepository::prune(std::int64_t now) {
  db_.prepare("DELETE FROM idempotency_records WHERE expires_at <= ?").bind(1, now).run();
  return db_.changes();
}

std::int64_t IdempotencyRepository::count_expired(std::int64_t now) {
  auto s = db_.prepare("SELECT count(*) FROM idempotency_records WHERE expires_at <= ?");
  s.bind(1, now);
  s.step();
  return s.integer(0);
}

int IdempotencyRepository::remove_in_progress() {
  db_.prepare("DELETE FROM idempotency_records WHERE state = 'in_progress'").run();
  return db_.changes();
}

}  // namespace mission::store
