// log_decision, log_issue and log_milestone: what an agent notes against a
// task. Issues flagged requires_human_review are blockers until a person
// resolves them (`mission resolve`).

#include "daemon/execution/agent_execution.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// The task a journal entry is for; its mission is touched so lists sort by
// activity.
store::TaskRow task_for_entry(Caller& caller, const nlohmann::json& args, std::int64_t now) {
  store::TaskRow task = require_task(caller.db, args.at("task_id").get<std::string>());
  store::MissionRepository(caller.db).touch(task.mission_id, now);
  return task;
}

}  // namespace

nlohmann::json log_decision(Caller& caller, const nlohmann::json& args) {
  const std::int64_t now = execution::unix_ms_now();
  store::TaskRow task = task_for_entry(caller, args, now);
  store::DecisionRow row{execution::new_random_id("dc-", 10),
                         task.id,
                         caller.execution_id,
                         args.at("category").get<std::string>(),
                         args.at("question").get<std::string>(),
                         json_arg(args, "options_considered"),
                         args.at("chosen").get<std::string>(),
                         args.at("reasoning").get<std::string>(),
                         text_arg(args, "trade_offs"),
                         now};
  store::JournalRepository(caller.db).insert(row);
  return {{"decision_id", row.id}, {"task_id", task.id}, {"created_at", format_utc_iso8601(now)}};
}

nlohmann::json log_issue(Caller& caller, const nlohmann::json& args) {
  const std::int64_t now = execution::unix_ms_now();
  store::TaskRow task = task_for_entry(caller, args, now);
  store::IssueRow row;
  row.id = execution::new_random_id("is-", 10);
  row.task_id = task.id;
  row.execution_id = caller.execution_id;
  row.type = args.at("type").get<std::string>();
  row.description = args.at("description").get<std::string>();
  row.resolution = args.at("resolution").get<std::string>();
  row.requires_human_review = args.value("requires_human_review", false);
  row.created_at = now;
  store::JournalRepository(caller.db).insert(row);
  return {{"issue_id", row.id},
          {"task_id", task.id},
          {"blocker", row.requires_human_review},
          {"created_at", format_utc_iso8601(now)}};
}

nlohmann::json log_milestone(Caller& caller, const nlohmann::json& args) {
  const std::int64_t now = execution::unix_ms_now();
  store::TaskRow task = task_for_entry(caller, args, now);
  store::MilestoneRow row;
  row.id = execution::new_random_id("ml-", 10);
  row.task_id = task.id;
  row.execution_id = caller.execution_id;
  row.message = args.at("message").get<std::string>();
  if (args.contains("progress")) row.progress = args.at("progress").get<double>();
  row.metadata = json_arg(args, "metadata");
  row.created_at = now;
  store::JournalRepository(caller.db).insert(row);
  return {{"milestone_id", row.id}, {"task_id", task.id}, {"created_at", format_utc_iso8601(now)}};
}

}  // namespace mission::daemon::tracking
