#include "daemon/store/observation_repository.hpp"

namespace mission::store {
namespace {

constexpr const char* kColumns =
    "id, execution_id, event_id, origin, kind, payload, status, reason, created_at";

ObservationRow read_row(const Statement& s) {
  ObservationRow row;
  row.id = s.integer(0);
  row.execution_id = s.text(1);
  row.event_id = s.text(2);
  row.origin = s.text(3);
  row.kind = s.text(4);
  row.payload = s.text(5);
  row.status = s.name<ObservationStatus>(6);
  row.reason = s.optional_text(7);
  row.created_at = s.integer(8);
  return row;
}

}  // namespace

std::optional<std::int64_t> ObservationRepository::insert_unique(const ObservationRow& row) {
  auto s = db_.prepare(
      "INSERT INTO observations (execution_id, event_id, origin, kind, payload, status, reason, "
      "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
      "ON CONFLICT (execution_id, event_id) DO NOTHING RETURNING id");
  s.bind(1, row.execution_id).bind(2, row.event_id).bind(3, row.origin).bind(4, row.kind);
  s.bind(5, row.payload).bind(6, row.status).bind(7, row.reason).bind(8, row.created_at);
  // No row back: the (execution, event) pair was already recorded.
  if (!s.step()) return std::nullopt;
  return s.integer(0);
}

std::optional<ObservationRow> ObservationRepository::find(const std::string& execution_id,
                                                          const std::string& event_id) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       " FROM observations WHERE execution_id = ?1 AND event_id = ?2");
  s.bind(1, execution_id).bind(2, event_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

Page<ObservationRow> ObservationRepository::page(const std::string& execution_id,
                                                 const PageRequest& request) {
  auto s =
      db_.prepare(std::string("SELECT ") + kColumns + " FROM observations WHERE execution_id = ?1" +
                  page_clause(request, "id", 2, 3));
  s.bind(1, execution_id).bind(2, page_position(request));
  s.bind(3, static_cast<std::int64_t>(request.limit) + 1);
  Page<ObservationRow> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read_row(s));
    page.positions.push_back(page.rows.back().id);
  }
  return page;
}

std::int64_t ObservationRepository::count(const std::string& execution_id) {
  auto s = db_.prepare("SELECT count(*) FROM observations WHERE execution_id = ?1");
  s.bind(1, execution_id);
  s.step();
  return s.integer(0);
}

std::optional<SignalType> ObservationRepository::last_claim(const std::string& execution_id) {
  auto s = db_.prepare(
      "SELECT kind FROM observations WHERE execution_id = ?1 AND kind IN ('completed_claim', "
      "'failed_claim') ORDER BY id DESC LIMIT 1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  return s.name<SignalType>(0);
}

std::optional<ObservationRow> ObservationRepository::waiting_on(const std::string& execution_id) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       " FROM observations WHERE execution_id = ?1 AND kind IN ('needs_input', "
                       "'blocked') AND status = 'accepted' ORDER BY id DESC LIMIT 1");
  s.bind(1, execution_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

std::optional<ObservationRow> ObservationRepository::open_permission_prompt(
    const std::string& execution_id) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       " FROM observations WHERE execution_id = ?1 AND kind IN (?2, ?3) ORDER BY "
                       "id DESC LIMIT 1");
  s.bind(1, execution_id).bind(2, kPermissionPromptKind).bind(3, kPermissionPromptClearedKind);
  if (!s.step()) return std::nullopt;
  ObservationRow row = read_row(s);
  if (row.kind != kPermissionPromptKind) return std::nullopt;
  return row;
}

std::vector<ObservationRow> ObservationRepository::of_kind(const std::string& execution_id,
                                                           std::string_view kind,
                                                           std::size_t limit) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       " FROM observations WHERE execution_id = ?1 AND kind = ?2 ORDER BY id "
                       "LIMIT ?3");
  s.bind(1, execution_id).bind(2, kind).bind(3, static_cast<std::int64_t>(limit));
  std::vector<ObservationRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  return rows;
}

void ObservationRepository::promote(const std::string& execution_id, SignalType kind) {
  auto s = db_.prepare(
      "UPDATE observations SET status = 'promoted' WHERE execution_id = ?1 AND kind = ?2 AND "
      "status = 'recorded-only'");
  s.bind(1, execution_id).bind(2, kind);
  s.run();
}

std::int64_t ObservationRepository::count_all() {
  auto s = db_.prepare("SELECT count(*) FROM observations");
  s.step();
  return s.integer(0);
}

}  // namespace mission::store
