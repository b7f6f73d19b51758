#pragma once
// Persistence of missions (and legacy workflows) and their phases: the
// missions and phases tables.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct MissionRow {
  std::string id;
  MissionKind kind = MissionKind::mission;
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
  MissionStatus status = MissionStatus::in_progress;
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
  PhaseStatus status = PhaseStatus::in_progress;
  std::optional<std::string> execution_id;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> completed_at;
};

// How far a mission's tasks are, and its open blockers.
struct MissionCounts {
  std::int64_t tasks = 0;
  std::int64_t in_progress = 0;
  std::int64_t failed = 0;
  std::int64_t pending = 0;  // a planned task not started yet
  std::int64_t open_blockers = 0;
};

class MissionRepository {
 public:
  explicit MissionRepository(Database& db) : db_(db) {}

  void insert(const MissionRow& row);
  std::optional<MissionRow> find(const std::string& id);
  // One page of missions (see page.hpp; positions are rowids, in creation
  // order); `cwd_prefix` keeps missions whose cwd is it or below it.
  Page<MissionRow> page(const std::optional<std::string>& cwd_prefix, const PageRequest& request);
  // The counts of each of `ids`, in two queries whatever their number.
  std::map<std::string, MissionCounts> counts(std::span<const std::string> ids);
  // Every mission id in or below `cwd_prefix` (all with nullopt), oldest first.
  std::vector<std::string> ids(const std::optional<std::string>& cwd_prefix);
  // Writes the fields complete_mission sets (status, summary, achievements,
  // limitations, completed_at) and updated_at.
  void complete(const MissionRow& row);
  void set_current_phase(const std::string& id, std::int64_t phase, std::int64_t now);
  void set_status(const std::string& id, MissionStatus status, std::int64_t now);
  // Raises total_phases to `phases` when it is lower.
  void extend_phases(const std::string& id, std::int64_t phases, std::int64_t now);
  void touch(const std::string& id, std::int64_t now);

  void insert_phase(const PhaseRow& row);
  std::optional<PhaseRow> find_phase(const std::string& mission_id, std::int64_t number);
  std::optional<PhaseRow> find_phase_by_id(const std::string& id);
  // Ends a phase: completed or failed.
  void end_phase(const std::string& id, PhaseStatus status, std::int64_t now);
  // Ends every phase of the mission that has not ended, as `status`.
  void end_open_phases(const std::string& mission_id, PhaseStatus status, std::int64_t now);
  // By number.
  std::vector<PhaseRow> phases(const std::string& mission_id);

 private:
  Database& db_;
};

}  // namespace mission::store
