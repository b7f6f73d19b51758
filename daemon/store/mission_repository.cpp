#include "daemon/store/mission_repository.hpp"

#include <nlohmann/json.hpp>

namespace mission::store {
namespace {

constexpr const char* kMissionColumns =
    "id, kind, execution_id, cwd, name, objective, description, profile, scope, constraints, "
    "plan, total_phases, current_phase, status, summary, achievements, limitations, created_at, "
    "completed_at, updated_at";

MissionRow read_mission(const Statement& s) {
  MissionRow row;
  row.id = s.text(0);
  row.kind = s.name<MissionKind>(1);
  row.execution_id = s.optional_text(2);
  row.cwd = s.text(3);
  row.name = s.text(4);
  row.objective = s.optional_text(5);
  row.description = s.optional_text(6);
  row.profile = s.optional_text(7);
  row.scope = s.optional_text(8);
  row.constraints = s.optional_text(9);
  row.plan = s.optional_text(10);
  row.total_phases = s.optional_integer(11);
  row.current_phase = s.integer(12);
  row.status = s.name<MissionStatus>(13);
  row.summary = s.optional_text(14);
  row.achievements = s.optional_text(15);
  row.limitations = s.optional_text(16);
  row.created_at = s.integer(17);
  row.completed_at = s.optional_integer(18);
  row.updated_at = s.integer(19);
  return row;
}

constexpr const char* kPhaseColumns =
    "id, mission_id, number, name, status, execution_id, created_at, completed_at";

PhaseRow read_phase(const Statement& s) {
  PhaseRow row;
  row.id = s.text(0);
  row.mission_id = s.text(1);
  row.number = s.integer(2);
  row.name = s.optional_text(3);
  row.status = s.name<PhaseStatus>(4);
  row.execution_id = s.optional_text(5);
  row.created_at = s.integer(6);
  row.completed_at = s.optional_integer(7);
  return row;
}

}  // namespace

void MissionRepository::insert(const MissionRow& row) {
  db_.prepare(std::string("INSERT INTO missions (") + kMissionColumns +
              ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.kind)
      .bind(3, row.execution_id)
      .bind(4, row.cwd)
      .bind(5, row.name)
      .bind(6, row.objective)
      .bind(7, row.description)
      .bind(8, row.profile)
      .bind(9, row.scope)
      .bind(10, row.constraints)
      .bind(11, row.plan)
      .bind(12, row.total_phases)
      .bind(13, row.current_phase)
      .bind(14, row.status)
      .bind(15, row.summary)
      .bind(16, row.achievements)
      .bind(17, row.limitations)
      .bind(18, row.created_at)
      .bind(19, row.completed_at)
      .bind(20, row.updated_at)
      .run();
}

std::optional<MissionRow> MissionRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kMissionColumns + " FROM missions WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_mission(s);
}

namespace {

// A prefix on a path boundary: the directory itself or anything below it.
constexpr const char* kInCwd =
    "(?1 IS NULL OR cwd = ?1 OR substr(cwd, 1, length(rtrim(?1, '/')) + 1) = rtrim(?1, '/') || "
    "'/')";

}  // namespace

Page<MissionRow> MissionRepository::page(const std::optional<std::string>& cwd_prefix,
                                         const PageRequest& request) {
  auto s = db_.prepare(std::string("SELECT ") + kMissionColumns + ", rowid FROM missions WHERE " +
                       kInCwd + page_clause(request, "rowid", 2, 3));
  s.bind(1, cwd_prefix).bind(2, page_position(request));
  s.bind(3, static_cast<std::int64_t>(request.limit) + 1);
  Page<MissionRow> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read_mission(s));
    page.positions.push_back(s.integer(20));
  }
  return page;
}

std::map<std::string, MissionCounts> MissionRepository::counts(std::span<const std::string> ids) {
  std::map<std::string, MissionCounts> counts;
  if (ids.empty()) return counts;
  const std::string id_list =
      nlohmann::json(std::vector<std::string>(ids.begin(), ids.end())).dump();
  auto tasks = db_.prepare(
      "SELECT mission_id, count(*), sum(status = 'in_progress'), sum(status = 'failed'), "
      "sum(status = 'pending') FROM tasks "
      "WHERE mission_id IN (SELECT value FROM json_each(?1)) GROUP BY mission_id");
  tasks.bind(1, id_list);
  while (tasks.step()) {
    MissionCounts& entry = counts[tasks.text(0)];
    entry.tasks = tasks.integer(1);
    entry.in_progress = tasks.integer(2);
    entry.failed = tasks.integer(3);
    entry.pending = tasks.integer(4);
  }
  auto blockers = db_.prepare(
      "SELECT t.mission_id, count(*) FROM issues x JOIN tasks t ON t.id = x.task_id WHERE "
      "t.mission_id IN (SELECT value FROM json_each(?1)) AND x.requires_human_review = 1 AND "
      "x.resolved_at IS NULL GROUP BY t.mission_id");
  blockers.bind(1, id_list);
  while (blockers.step()) counts[blockers.text(0)].open_blockers = blockers.integer(1);
  return counts;
}

std::vector<std::string> MissionRepository::ids(const std::optional<std::string>& cwd_prefix) {
  auto s = db_.prepare(std::string("SELECT id FROM missions WHERE ") + kInCwd + " ORDER BY rowid");
  s.bind(1, cwd_prefix);
  std::vector<std::string> ids;
  while (s.step()) ids.push_back(s.text(0));
  return ids;
}

void MissionRepository::complete(const MissionRow& row) {
  db_.prepare(
         "UPDATE missions SET status = ?, summary = ?, achievements = ?, limitations = ?, "
         "completed_at = ?, updated_at = ? WHERE id = ?")
      .bind(1, row.status)
      .bind(2, row.summary)
      .bind(3, row.achievements)
      .bind(4, row.limitations)
      .bind(5, row.completed_at)
      .bind(6, row.updated_at)
      .bind(7, row.id)
      .run();
}

void MissionRepository::set_current_phase(const std::string& id, std::int64_t phase,
                                          std::int64_t now) {
  db_.prepare("UPDATE missions SET current_phase = ?, updated_at = ? WHERE id = ?")
      .bind(1, phase)
      .bind(2, now)
      .bind(3, id)
      .run();
}

void MissionRepository::set_status(const std::string& id, MissionStatus status, std::int64_t now) {
  db_.prepare("UPDATE missions SET status = ?, updated_at = ? WHERE id = ?")
      .bind(1, status)
      .bind(2, now)
      .bind(3, id)
      .run();
}

void MissionRepository::extend_phases(const std::string& id, std::int64_t phases,
                                      std::int64_t now) {
  db_.prepare(
         "UPDATE missions SET total_phases = ?, updated_at = ? WHERE id = ? AND "
         "(total_phases IS NULL OR total_phases < ?)")
      .bind(1, phases)
      .bind(2, now)
      .bind(3, id)
      .bind(4, phases)
      .run();
}

void MissionRepository::touch(const std::string& id, std::int64_t now) {
  db_.prepare("UPDATE missions SET updated_at = ? WHERE id = ?").bind(1, now).bind(2, id).run();
}

void MissionRepository::insert_phase(const PhaseRow& row) {
  db_.prepare(std::string("INSERT INTO phases (") + kPhaseColumns + ") VALUES (?,?,?,?,?,?,?,?)")
      .bind(1, row.id)
      .bind(2, row.mission_id)
      .bind(3, row.number)
      .bind(4, row.name)
      .bind(5, row.status)
      .bind(6, row.execution_id)
      .bind(7, row.created_at)
      .bind(8, row.completed_at)
      .run();
}

std::optional<PhaseRow> MissionRepository::find_phase(const std::string& mission_id,
                                                      std::int64_t number) {
  auto s = db_.prepare(std::string("SELECT ") + kPhaseColumns +
                       " FROM phases WHERE mission_id = ? AND number = ?");
  s.bind(1, mission_id).bind(2, number);
  if (!s.step()) return std::nullopt;
  return read_phase(s);
}

std::optional<PhaseRow> MissionRepository::find_phase_by_id(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kPhaseColumns + " FROM phases WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_phase(s);
}

void MissionRepository::end_phase(const std::string& id, PhaseStatus status, std::int64_t now) {
  db_.prepare("UPDATE phases SET status = ?, completed_at = ? WHERE id = ?")
      .bind(1, status)
      .bind(2, now)
      .bind(3, id)
      .run();
}

void MissionRepository::end_open_phases(const std::string& mission_id, PhaseStatus status,
                                        std::int64_t now) {
  db_.prepare(
         "UPDATE phases SET status = ?, completed_at = ? WHERE mission_id = ? AND status IN "
         "('pending', 'in_progress')")
      .bind(1, status)
      .bind(2, now)
      .bind(3, mission_id)
      .run();
}

std::vector<PhaseRow> MissionRepository::phases(const std::string& mission_id) {
  auto s = db_.prepare(std::string("SELECT ") + kPhaseColumns +
                       " FROM phases WHERE mission_id = ? ORDER BY number");
  s.bind(1, mission_id);
  std::vector<PhaseRow> rows;
  while (s.step()) rows.push_back(read_phase(s));
  return rows;
}

}  // namespace mission::store
