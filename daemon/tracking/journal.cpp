// log_decision, log_issue and log_milestone: what an agent notes against a
// task. Issues flagged requires_human_review are blockers until a person
// resolves them (`mission resolve`); while one is open the mission is
// blocked.

#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/authorization.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_events.hpp"
#include "shared/clock.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::tracking {
namespace {

// The task a journal entry is for; its mission is touched so lists sort by
// activity.
store::TaskRow task_for_entry(Caller& caller, const std::string& task_id, std::int64_t now) {
  store::TaskRow task = require_task(caller.db, task_id);
  require_task_writer(caller.db, caller.execution_id, task);
  store::MissionRepository(caller.db).touch(task.mission_id, now);
  return task;
}

}  // namespace

nlohmann::json log_decision(Caller& caller, const LogDecisionRequest& request) {
  const std::int64_t now = unix_ms_now();
  store::TaskRow task = task_for_entry(caller, request.task_id, now);
  store::DecisionRow row{
      new_random_id("dc-", 10),
      task.id,
      caller.execution_id,
      request.category,
      request.question,
      request.has_options ? std::optional<std::string>(
                                nlohmann::json(request.options_considered)
                                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
                          : std::nullopt,
      request.chosen,
      request.reasoning,
      request.trade_offs,
      now};
  store::JournalRepository(caller.db).insert(row);
  add_journal_event(caller.events, "decision", task, caller.execution_id,
                    {{"decisionId", row.id},
                     {"category", request.category},
                     {"question", request.question},
                     {"chosen", request.chosen},
                     {"reasoning", request.reasoning}});
  return {{"decision_id", row.id}, {"task_id", task.id}, {"created_at", format_utc_iso8601(now)}};
}

nlohmann::json log_issue(Caller& caller, const LogIssueRequest& request) {
  const std::int64_t now = unix_ms_now();
  store::TaskRow task = task_for_entry(caller, request.task_id, now);
  store::IssueRow row;
  row.id = new_random_id("is-", 10);
  row.task_id = task.id;
  row.execution_id = caller.execution_id;
  row.type = request.type;
  row.description = request.description;
  row.resolution = request.resolution;
  row.requires_human_review = request.requires_human_review;
  row.created_at = now;
  store::JournalRepository(caller.db).insert(row);
  add_journal_event(caller.events, "issue", task, caller.execution_id,
                    {{"issueId", row.id},
                     {"type", row.type},
                     {"description", row.description},
                     {"requiresHumanReview", row.requires_human_review}});
  if (row.requires_human_review) {
    mark_blocked(caller.db, caller.events,
                 require_mission(caller.db, task.mission_id, "mission_id"), caller.execution_id);
  }
  return {{"issue_id", row.id},
          {"task_id", task.id},
          {"blocker", row.requires_human_review},
          {"created_at", format_utc_iso8601(now)}};
}

nlohmann::json log_milestone(Caller& caller, const LogMilestoneRequest& request) {
  const std::int64_t now = unix_ms_now();
  store::TaskRow task = task_for_entry(caller, request.task_id, now);
  store::MilestoneRow row;
  row.id = new_random_id("ml-", 10);
  row.task_id = task.id;
  row.execution_id = caller.execution_id;
  row.message = request.message;
  row.progress = request.progress;
  row.metadata = request.metadata_json;
  row.created_at = now;
  store::JournalRepository(caller.db).insert(row);
  nlohmann::json entry = {{"milestoneId", row.id}, {"message", row.message}};
  if (row.progress) entry["progress"] = *row.progress;
  add_journal_event(caller.events, "milestone", task, caller.execution_id, std::move(entry));
  return {{"milestone_id", row.id}, {"task_id", task.id}, {"created_at", format_utc_iso8601(now)}};
}

}  // namespace mission::daemon::tracking
