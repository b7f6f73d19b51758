#pragma once
// The reads behind the people's inbox beside its messages and questions:
// the tasks of a run that wait on a person's approval or on a budget to be
// raised, and the tasks whose merge conflicted in a workflow's last run
// (mission inbox).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

// Most entries of each kind `mission inbox` lists besides messages: tasks
// awaiting approval, merge conflicts, blocked executions. More than this
// many waiting at once is a run to look at with mission workflows status.
inline constexpr std::size_t kMaxInboxEntries = 100;

// A task of a run as the inbox shows it.
struct WaitingTask {
  std::string task_id;
  std::string task_name;
  std::string workflow_id;
  std::string workflow_name;
  std::string run_id;
  std::int64_t attempt = 0;
  std::optional<std::string> execution_id;
  std::optional<std::string> reason;
  std::int64_t since = 0;  // the attempt's start (approval) or end (conflict)
};

class InboxRepository {
 public:
  explicit InboxRepository(Database& db) : db_(db) {}

  // At most `limit` tasks awaiting approval in runs under way, oldest first.
  std::vector<WaitingTask> awaiting_approval(std::size_t limit);
  // At most `limit` tasks whose merge conflicted in their workflow's last
  // run and that nobody has reset since (the task is still failed).
  std::vector<WaitingTask> conflicted(std::size_t limit);
  // At most `limit` tasks of runs under way whose newest attempt stopped at
  // a budget (docs/adr/0049), oldest first.
  std::vector<WaitingTask> budget_reached(std::size_t limit);

 private:
  Database& db_;
};

}  // namespace mission::store
