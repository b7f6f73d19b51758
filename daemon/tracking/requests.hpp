#pragma once
// The typed requests of the tracking tools (seeds mission-control-mcp-protocol.md
// and workflow-tracking-mcp-protocol.fr.md), decoded once from the validated
// arguments by the MCP layer (daemon/mcp/tracking_toolset.cpp). Domain code
// reads these, never the raw arguments. Agent-supplied documents that are
// stored as given (an outcome, metadata) travel as their JSON text.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "shared/vocabulary.hpp"

namespace mission::daemon::tracking {

struct StartMissionRequest {
  std::string name;
  std::string objective;
  std::optional<std::string> description;
  std::optional<std::string> profile;  // simple, standard or complex
  std::optional<std::int64_t> total_phases;
  std::optional<std::string> scope;
  std::optional<std::string> constraints;
};

struct PlanStep {
  std::string step;
  std::string goal;
};

struct StartWorkflowRequest {
  std::string name;
  std::optional<std::string> description;
  std::vector<PlanStep> plan;
};

struct CompleteMissionRequest {
  std::string mission_id;
  MissionStatus status = MissionStatus::completed;  // completed, failed or partial
  std::string summary;
  std::vector<std::string> achievements;
  std::vector<std::string> limitations;
  // What to do with tasks still in progress: refuse (the default) or close
  // them with the mission's outcome.
  bool close_open_tasks = false;
};

// Where a start_task belongs: exactly one of these (the schema's oneOf).
// planned_task starts a task a plan created (docs/adr/0015): its name,
// goal and areas come from the plan.
struct TaskTarget {
  enum class Kind { mission, workflow, parent_task, planned_task };
  Kind kind = Kind::mission;
  std::string id;
};

struct StartTaskRequest {
  TaskTarget target;
  std::optional<std::string> parent_task_id;  // also set when target is parent_task
  std::string name;
  std::string goal;
  std::optional<std::int64_t> phase;
  std::optional<std::string> phase_name;
  std::optional<std::string> caller_type;  // orchestrator or subagent
  std::optional<std::string> agent_name;
  std::vector<std::string> areas;
};

struct TaskOutcome {
  std::string summary;
  bool manual_review_needed = false;
  std::optional<std::string> manual_review_reason;
  std::string json;  // the whole outcome as given, stored with the task
};

struct CompleteTaskRequest {
  std::string task_id;
  TaskStatus status = TaskStatus::success;  // success, partial_success or failed
  TaskOutcome outcome;
  std::optional<std::string> metadata_json;
  bool phase_complete = false;
};

struct LogDecisionRequest {
  std::string task_id;
  std::string category;
  std::string question;
  std::vector<std::string> options_considered;
  bool has_options = false;
  std::string chosen;
  std::string reasoning;
  std::optional<std::string> trade_offs;
};

struct LogIssueRequest {
  std::string task_id;
  std::string type;
  std::string description;
  std::string resolution;
  bool requires_human_review = false;
};

struct LogMilestoneRequest {
  std::string task_id;
  std::string message;
  std::optional<double> progress;
  std::optional<std::string> metadata_json;
};

// The lists get_context can include.
enum class ContextList { phase_summary, tasks, decisions, milestones, blockers };

struct ContextFilter {
  std::optional<std::int64_t> phase;
  std::optional<std::string> agent;
  std::optional<std::int64_t> since_ms;
};

struct GetContextRequest {
  std::string mission_id;
  std::set<ContextList> include;
  ContextFilter filter;
  std::optional<std::string> cursor;        // older items of the lists a page cut
  std::optional<std::string> after_cursor;  // only items newer than a page's newest
  std::size_t limit = 0;                    // per list; 0: the default
};

struct TaskChangesRequest {
  std::string task_id;
  std::optional<std::int64_t> cursor;
  std::size_t limit = 0;
};

}  // namespace mission::daemon::tracking
