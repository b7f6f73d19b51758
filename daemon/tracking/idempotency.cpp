#include "daemon/tracking/idempotency.hpp"

#include "daemon/store/idempotency_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/sha256.hpp"

namespace mission::daemon::tracking {
namespace {

std::int64_t expiry(std::int64_t now, std::int64_t ttl_ms) {
  return ttl_ms == 0 ? store::kNeverExpires : now + ttl_ms;
}

}  // namespace

IdempotencyKey::IdempotencyKey(std::string execution_id, std::string request_id, std::string tool,
                               const nlohmann::json& arguments)
    : execution_id_(std::move(execution_id)),
      request_id_(std::move(request_id)),
      tool_(std::move(tool)) {
  nlohmann::json payload = arguments;
  payload.erase("request_id");
  // nlohmann::json keeps object keys sorted, so equal payloads dump equal.
  Sha256Digest digest =
      sha256(tool_ + "\n" + payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  digest_.assign(reinterpret_cast<const char*>(digest.data()), digest.size());
}

std::optional<nlohmann::json> IdempotencyKey::replay(store::Database& db) const {
  store::IdempotencyRepository records(db);
  auto row = records.find(execution_id_, request_id_);
  if (!row) return std::nullopt;
  if (row->expires_at <= unix_ms_now()) {
    records.remove(execution_id_, request_id_);  // expired: the key is free again
    return std::nullopt;
  }
  if (row->tool != tool_ || row->payload_sha256 != digest_) {
    throw MissionError(
        ErrorCode::idempotency_conflict,
        "request_id '" + request_id_ + "' was already used for another " +
            (row->tool == tool_ ? "payload of " + tool_ : "call (" + row->tool + ")"),
        "use a new request_id for a different call; reuse one only to retry the "
        "exact same call",
        {{"request_id", request_id_}, {"tool", row->tool}});
  }
  if (!row->completed) {
    throw MissionError(ErrorCode::idempotency_in_progress,
                       "the first call with request_id '" + request_id_ + "' is still running",
                       "retry the same call in a moment to get its result",
                       {{"request_id", request_id_}, {"tool", row->tool}});
  }
  return parse_stored_json(row->result.value_or("null"), "idempotency result");
}

void IdempotencyKey::reserve(store::Database& db, const IdempotencySettings& settings) const {
  const std::int64_t now = unix_ms_now();
  store::IdempotencyRepository(db).put({execution_id_, request_id_, tool_, digest_, false,
                                        std::nullopt, now,
                                        expiry(now, settings.in_progress_ttl_ms)});
}

void IdempotencyKey::complete(store::Database& db, const IdempotencySettings& settings,
                              const nlohmann::json& result) const {
  const std::int64_t now = unix_ms_now();
  store::IdempotencyRepository(db).put(
      {execution_id_, request_id_, tool_, digest_, true,
       result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), now,
       expiry(now, settings.completed_ttl_ms)});
}

void IdempotencyKey::release(store::Database& db) const {
  store::IdempotencyRepository(db).remove(execution_id_, request_id_);
}

int prune_idempotency_records(store::Database& db, std::int64_t now_ms) {
  return store::IdempotencyRepository(db).prune(now_ms);
}

}  // namespace mission::daemon::tracking
