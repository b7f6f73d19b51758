#include "daemon/store/required_rows.hpp"

#include "shared/error_code.hpp"

namespace mission::store {
namespace {

[[noreturn]] void not_found(const std::string& id, std::string_view field, std::string_view hint) {
  throw MissionError(ErrorCode::not_found, std::string(field) + " '" + id + "' does not exist",
                     std::string(hint), {{"field", field}, {"id", id}});
}

}  // namespace

MissionRow require_mission(Database& db, const std::string& id, std::string_view field,
                           std::string_view hint) {
  auto row = MissionRepository(db).find(id);
  if (!row) not_found(id, field, hint);
  return *row;
}

TaskRow require_task(Database& db, const std::string& id, std::string_view field,
                     std::string_view hint) {
  auto row = TaskRepository(db).find(id);
  if (!row) not_found(id, field, hint);
  return *row;
}

}  // namespace mission::store
