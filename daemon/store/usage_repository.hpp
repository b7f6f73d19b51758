#pragma once
// Persistence of the tokens and cost agents state in their own streams
// (the execution_usage table), and the figures `mission usage` adds up:
// an execution's stream figures when it has them, else the tokens its
// agent reported in complete_task (on its run attempt).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "shared/agent_usage.hpp"

namespace mission::store {

struct UsageRow {
  std::string execution_id;
  std::string source = "stream";
  AgentUsage usage;
  std::int64_t updated_at = 0;
};

// Figures added up over some executions; a field is nullopt when none of
// them had it.
struct UsageSum {
  std::int64_t executions = 0;
  std::int64_t from_stream = 0;   // of them, figures read from their stream
  std::int64_t from_reports = 0;  // of them, tokens their agent reported
  AgentUsage usage;
  std::int64_t last_at = 0;  // the newest execution's creation
};

// One line of `mission usage`: a workflow's executions, or one execution
// (of a `mission run`, or of the workflow asked for).
struct UsageGroup {
  std::string id;  // the workflow's or the execution's
  bool workflow = false;
  std::string name;          // the workflow's or the execution's name; may be empty
  std::string adapter;       // an execution's
  std::string task_name;     // an execution's task in a run, if any
  std::int64_t attempt = 0;  // its attempt, if any
  UsageSum sum;
};

class UsageRepository {
 public:
  explicit UsageRepository(Database& db) : db_(db) {}

  // Writes the execution's figures from `row.source`, replacing earlier ones.
  void put(const UsageRow& row);
  std::optional<UsageRow> find(const std::string& execution_id);

  // Executions created at or after `since` with figures: by workflow (an
  // execution outside every run alone), newest first, at most `limit`.
  std::vector<UsageGroup> by_workflow(std::int64_t since, std::size_t limit);
  // The executions of `workflow_id`'s runs, one each, newest first.
  std::vector<UsageGroup> of_workflow(const std::string& workflow_id, std::int64_t since,
                                      std::size_t limit);
  // All of them added up (of one workflow when given).
  UsageSum total(std::int64_t since, const std::optional<std::string>& workflow_id);

 private:
  Database& db_;
};

}  // namespace mission::store
