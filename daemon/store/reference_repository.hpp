#pragma once
// The reads behind naming a workflow or a task as people do (an id, a
// prefix of it, a name, @last): daemon/planning/record_reference.hpp.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

// A mission record or a task as a reference finds it.
struct ReferencedRow {
  std::string id;
  std::string name;
  std::string mission_id;  // a task's mission or workflow; a mission's own id
};

class ReferenceRepository {
 public:
  explicit ReferenceRepository(Database& db) : db_(db) {}

  // Mission records: planned workflows only, or every kind with
  // `any_kind`.
  // The one created or run last.
  std::optional<ReferencedRow> last_record(bool any_kind);
  std::optional<ReferencedRow> record(const std::string& id, bool any_kind);
  // The one created last with this name.
  std::optional<ReferencedRow> latest_named_record(const std::string& name, bool any_kind);
  // At most `limit` whose ids start with `prefix`, by id.
  std::vector<ReferencedRow> records_with_prefix(const std::string& prefix, bool any_kind,
                                                 std::size_t limit);
  // The `limit` created last: what a did-you-mean compares a word with.
  std::vector<ReferencedRow> recent_records(bool any_kind, std::size_t limit);

  // Tasks, of `mission_id` only when it is given.
  std::optional<ReferencedRow> task(const std::string& id);
  // At most `limit` named `name`, created last first.
  std::vector<ReferencedRow> tasks_named(const std::string& name,
                                         const std::optional<std::string>& mission_id,
                                         std::size_t limit);
  std::vector<ReferencedRow> tasks_with_prefix(const std::string& prefix,
                                               const std::optional<std::string>& mission_id,
                                               std::size_t limit);
  std::vector<ReferencedRow> recent_tasks(const std::optional<std::string>& mission_id,
                                          std::size_t limit);

 private:
  Database& db_;
};

}  // namespace mission::store
