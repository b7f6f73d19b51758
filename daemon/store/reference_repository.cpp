#include "daemon/store/reference_repository.hpp"

#include "daemon/store/prefix_range.hpp"

namespace mission::store {
namespace {

// ?9 is 1 when any kind of mission record counts, 0 for planned workflows.
constexpr std::string_view kKindFilter = "(?9 = 1 OR kind = 'planned')";

std::vector<ReferencedRow> rows_of(Statement& s) {
  std::vector<ReferencedRow> rows;
  while (s.step()) rows.push_back({s.text(0), s.text(1), s.text(2)});
  return rows;
}

std::optional<ReferencedRow> first_of(Statement& s) {
  if (!s.step()) return std::nullopt;
  return ReferencedRow{s.text(0), s.text(1), s.text(2)};
}

}  // namespace

std::optional<ReferencedRow> ReferenceRepository::last_record(bool any_kind) {
  // Created, or run: a workflow run again is the one a person means next.
  auto s = db_.prepare("SELECT id, name, id FROM missions WHERE " + std::string(kKindFilter) +
                       " ORDER BY MAX(created_at, COALESCE((SELECT MAX(created_at) FROM runs WHERE "
                       "runs.workflow_id = missions.id), 0)) DESC, rowid DESC LIMIT 1");
  s.bind(9, any_kind ? 1 : 0);
  return first_of(s);
}

std::optional<ReferencedRow> ReferenceRepository::record(const std::string& id, bool any_kind) {
  auto s = db_.prepare("SELECT id, name, id FROM missions WHERE id = ?1 AND " +
                       std::string(kKindFilter));
  s.bind(1, id).bind(9, any_kind ? 1 : 0);
  return first_of(s);
}

std::optional<ReferencedRow> ReferenceRepository::latest_named_record(const std::string& name,
                                                                      bool any_kind) {
  auto s = db_.prepare("SELECT id, name, id FROM missions WHERE name = ?1 AND " +
                       std::string(kKindFilter) + " ORDER BY rowid DESC LIMIT 1");
  s.bind(1, name).bind(9, any_kind ? 1 : 0);
  return first_of(s);
}

std::vector<ReferencedRow> ReferenceRepository::records_with_prefix(const std::string& prefix,
                                                                    bool any_kind,
                                                                    std::size_t limit) {
  // A range on the primary key: no escaping, and the index answers.
  auto s = db_.prepare("SELECT id, name, id FROM missions WHERE id >= ?1 AND id < ?3 AND " +
                       std::string(kKindFilter) + " ORDER BY id LIMIT ?2");
  s.bind(1, prefix).bind(2, static_cast<std::int64_t>(limit)).bind(3, prefix_end(prefix));
  s.bind(9, any_kind ? 1 : 0);
  return rows_of(s);
}

std::vector<ReferencedRow> ReferenceRepository::recent_records(bool any_kind, std::size_t limit) {
  auto s = db_.prepare("SELECT id, name, id FROM missions WHERE " + std::string(kKindFilter) +
                       " ORDER BY rowid DESC LIMIT ?1");
  s.bind(1, static_cast<std::int64_t>(limit)).bind(9, any_kind ? 1 : 0);
  return rows_of(s);
}

std::optional<ReferencedRow> ReferenceRepository::task(const std::string& id) {
  auto s = db_.prepare("SELECT id, name, mission_id FROM tasks WHERE id = ?1");
  s.bind(1, id);
  return first_of(s);
}

std::vector<ReferencedRow> ReferenceRepository::tasks_named(
    const std::string& name, const std::optional<std::string>& mission_id, std::size_t limit) {
  auto s = db_.prepare(
      "SELECT id, name, mission_id FROM tasks WHERE name = ?1 AND (?2 IS NULL OR mission_id = ?2) "
      "ORDER BY rowid DESC LIMIT ?3");
  s.bind(1, name).bind(2, mission_id).bind(3, static_cast<std::int64_t>(limit));
  return rows_of(s);
}

std::vector<ReferencedRow> ReferenceRepository::tasks_with_prefix(
    const std::string& prefix, const std::optional<std::string>& mission_id, std::size_t limit) {
  auto s = db_.prepare(
      "SELECT id, name, mission_id FROM tasks WHERE id >= ?1 AND id < ?4 AND "
      "(?2 IS NULL OR mission_id = ?2) ORDER BY id LIMIT ?3");
  s.bind(1, prefix).bind(2, mission_id).bind(3, static_cast<std::int64_t>(limit));
  s.bind(4, prefix_end(prefix));
  return rows_of(s);
}

std::vector<ReferencedRow> ReferenceRepository::recent_tasks(
    const std::optional<std::string>& mission_id, std::size_t limit) {
  auto s = db_.prepare(
      "SELECT id, name, mission_id FROM tasks WHERE ?1 IS NULL OR mission_id = ?1 "
      "ORDER BY rowid DESC LIMIT ?2");
  s.bind(1, mission_id).bind(2, static_cast<std::int64_t>(limit));
  return rows_of(s);
}

}  // namespace mission::store
