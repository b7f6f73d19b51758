#pragma once
// Persistence of missions (and legacy workflows) and their phases: the
// missions and phases tables.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

struct MissionRow {
  std::string id;
  std::string kind;  // mission or workflow
  std::optional<std::string> execution_id;
  std::string cwd;
  std::string name;
  std::optional<std::string> objective;
  std::optional<std::string> description;
  std::optional<std::string> profile;
  std::optional<std::string> scope;
  std::optional<std::string> constraints;
  std::optional<std::string> plan;  // JSON
  std::optional<std::int64_t> total_phases;
  std::int64_t current_phase = 1;
  std::string status;
  std::optional<std::string> summary;
  std::optional<std::string> achievements;  // JSON
  std::optional<std::string> limitations;   // JSON
  std::int64_t created_at = 0;
  std::optional<std::int64_t> completed_at;
  std::int64_t updated_at = 0;
};

struct PhaseRow {
  std::string id;
  std::string mission_id;
  std::int64_t number = 0;
  std::optional<std::string> name;
  std::string status;
  std::optional<std::string> execution_id;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> completed_at;
};

class MissionRepository {
 public:
  explicit MissionRepository(Database& db) : db_(db) {}

  void insert(const MissionRow& row);
  std::optional<MissionRow> find(const std::string& id);
  // Newest first; `cwd_prefix` keeps missions whose cwd is it or below it.
  std::vector<MissionRow> list(std::size_t limit, const std::optional<std::string>& cwd_prefix);
  // Writes the fields complete_mission sets (status, summary, achievements,
  // limitations, completed_at) and updated_at.
  void complete(const MissionRow& row);
  void set_current_phase(const std::string& id, std::int64_t phase, std::int64_t now);
  void touch(const std::string& id, std::int64_t now);

  void insert_phase(const PhaseRow& row);
  std::optional<PhaseRow> find_phase(const std::string& mission_id, std::int64_t number);
  std::optional<PhaseRow> find_phase_by_id(const std::string& id);
  void complete_phase(const std::string& id, std::int64_t now);
  // By number.
  std::vector<PhaseRow> phases(const std::string& mission_id);

 private:
  Database& db_;
};

}  // namespace mission::store
