#pragma once
// Persistence of what agents log against a task: decisions, issues and
// milestones (one table each). Lists are per mission, oldest first.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"

namespace mission::store {

// The task's next journal sequence number (docs/adr/0015): every entry of a
// task's journal, whatever its kind, takes the next value of one counter.
std::int64_t next_journal_seq(Database& db, const std::string& task_id);

struct DecisionRow {
  std::string id;
  std::string task_id;
  std::optional<std::string> execution_id;
  std::string category;
  std::string question;
  std::optional<std::string> options_considered;  // JSON array
  std::string chosen;
  std::string reasoning;
  std::optional<std::string> trade_offs;
  std::int64_t created_at = 0;
};

struct IssueRow {
  std::string id;
  std::string task_id;
  std::optional<std::string> execution_id;
  std::string type;
  std::string description;
  std::string resolution;
  bool requires_human_review = false;
  std::optional<std::int64_t> resolved_at;
  std::optional<std::string> resolved_note;
  std::int64_t created_at = 0;
};

struct MilestoneRow {
  std::string id;
  std::string task_id;
  std::optional<std::string> execution_id;
  std::string message;
  std::optional<double> progress;
  std::optional<std::string> metadata;  // JSON object
  std::int64_t created_at = 0;
};

class JournalRepository {
 public:
  explicit JournalRepository(Database& db) : db_(db) {}

  void insert(const DecisionRow& row);
  void insert(const IssueRow& row);
  void insert(const MilestoneRow& row);

  // Pages of one mission's entries (positions: rowids, in creation order).
  Page<DecisionRow> decisions(const std::string& mission_id, const RecordFilter& filter,
                              const PageRequest& request);
  // `open_blockers_only` keeps the issues that need a person and are not resolved.
  Page<IssueRow> issues(const std::string& mission_id, const RecordFilter& filter,
                        const PageRequest& request, bool open_blockers_only = false);
  Page<MilestoneRow> milestones(const std::string& mission_id, const RecordFilter& filter,
                                const PageRequest& request);
  // Open blockers of the mission: issues needing human review, not resolved.
  std::int64_t count_open_blockers(const std::string& mission_id);

  std::optional<IssueRow> find_issue(const std::string& id);
  // The mission an issue's task belongs to, or nullopt.
  std::optional<std::string> mission_of_issue(const std::string& id);
  void resolve_issue(const std::string& id, std::int64_t at,
                     const std::optional<std::string>& note);

 private:
  Database& db_;
};

}  // namespace mission::store
