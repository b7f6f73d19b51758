// The control toolset (opt-in, docs/adr/0025): what a coordinating agent
// needs to run other agents on a workflow's tasks, in the closed loop of the
// seed mcp-tool-ux-design.md: executors and tasks, start an attempt, then
// its status, logs, changes and patch, a follow-up, a stop. Only a
// descriptor that names the toolset grants it; agents the daemon launches
// for attempts and runs get the default toolsets, so a worker cannot
// launch agents.

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/mcp/control_decoders.hpp"
#include "daemon/mcp/planning_caller.hpp"
#include "daemon/mcp/planning_decoders.hpp"
#include "daemon/mcp/tool_table.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/executable_path.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::mcp {
namespace {

runs::AttemptControl& attempts_of(ToolContext& context) {
  if (context.attempts == nullptr) {
    throw MissionError(ErrorCode::internal, "this daemon runs no attempts", "restart missiond");
  }
  return *context.attempts;
}

nlohmann::json list_executors(ToolContext&, const control::ListExecutorsRequest&) {
  nlohmann::json list = nlohmann::json::array();
  for (const adapters::AgentAdapter* adapter : adapters::adapter_table()) {
    nlohmann::json item = {{"name", adapter->name},
                           {"mcp", adapters::supports(*adapter, Delivery::mcp_tool)}};
    nlohmann::json deliveries = nlohmann::json::array();
    for (Delivery delivery : adapter->capabilities.deliveries)
      deliveries.push_back(name_of(delivery));
    item["deliveries"] = std::move(deliveries);
    if (adapter->binary.empty()) {
      // Its command is whatever start_task_attempt gives in args.
      item["available"] = true;
      item["needs_args"] = true;
    } else {
      // Looked up as its agents will be: the daemon's environment is theirs.
      const std::string variable = adapters::bin_variable(adapter->name);
      const char* chosen = std::getenv(variable.c_str());
      const std::string binary =
          chosen != nullptr && *chosen != '\0' ? chosen : std::string(adapter->binary);
      auto path = find_executable(binary);
      item["binary"] = binary;
      item["available"] = path.has_value();
      if (path) item["path"] = *path;
    }
    list.push_back(std::move(item));
  }
  return {{"executors", std::move(list)}};
}

nlohmann::json task_item(const planning::PlanState& state, planning::Node node,
                         store::Database& db) {
  const planning::PlanTask& task = state.tasks[node];
  nlohmann::json item = {{"task_id", task.id},
                         {"name", task.name},
                         {"status", planning::seed_task_status(
                                        task.status, planning::prerequisites_done(state, node))},
                         {"sequence", task.sequence},
                         {"attempts", store::TaskAttemptRepository(db).count_of_task(task.id)}};
  if (task.claimed_by) item["claimed_by"] = *task.claimed_by;
  return item;
}

nlohmann::json list_tasks(ToolContext& context, const control::ListTasksRequest& request) {
  planning::require_workflow(context.db, request.workflow_id, "workflow_id");
  auto state = planning::plan_state(context.plans, context.db, request.workflow_id);
  const std::int64_t count = static_cast<std::int64_t>(state->tasks.size());
  // Positions are plan order from 1; a page runs forward from after_cursor
  // (or the start), or back from cursor. A position past either end is
  // kept to the plan: the decoder allows any up to 18 digits.
  const std::int64_t from = request.page.after.value_or(0) + 1;
  const std::int64_t to = request.page.cursor ? std::min(*request.page.cursor - 1, count) : count;
  nlohmann::json items = nlohmann::json::array();
  std::vector<std::int64_t> positions;
  auto wanted = [&](planning::Node node) {
    if (request.statuses.empty()) return true;
    const std::string_view status = planning::seed_task_status(
        state->tasks[node].status, planning::prerequisites_done(*state, node));
    return std::find(request.statuses.begin(), request.statuses.end(), status) !=
           request.statuses.end();
  };
  bool more = false;
  if (request.page.cursor) {
    for (std::int64_t position = to; position >= 1; --position) {
      if (!wanted(static_cast<planning::Node>(position - 1))) continue;
      if (positions.size() == request.page.limit) {
        more = true;
        break;
      }
      positions.insert(positions.begin(), position);
    }
  } else {
    for (std::int64_t position = from; position <= to; ++position) {
      if (!wanted(static_cast<planning::Node>(position - 1))) continue;
      if (positions.size() == request.page.limit) {
        more = true;
        break;
      }
      positions.push_back(position);
    }
  }
  for (std::int64_t position : positions) {
    items.push_back(task_item(*state, static_cast<planning::Node>(position - 1), context.db));
  }
  nlohmann::json out = {
      {"workflow_id", request.workflow_id}, {"total", count}, {"tasks", std::move(items)}};
  if (more && !positions.empty()) {
    if (request.page.cursor) {
      out["cursor"] = std::to_string(positions.front());
    } else {
      out["after_cursor"] = std::to_string(positions.back());
    }
  }
  return out;
}

nlohmann::json get_task(ToolContext& context, const control::TaskIdRequest& request) {
  planning::TaskGetRequest get;
  get.id = request.task_id;
  nlohmann::json out = planning::task_get(context.db, context.plans, get, KeyStyle::snake);
  runs::AttemptControl& attempts = attempts_of(context);
  store::PageRequest newest;
  newest.limit = limits::kTaskAttemptsShown;
  auto page = store::TaskAttemptRepository(context.db).of_task(request.task_id, newest);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& attempt : page.rows)
    list.push_back(runs::attempt_json(attempt, attempts.latest_turn(attempt)));
  out["attempts"] = std::move(list);
  out["attempt_count"] = store::TaskAttemptRepository(context.db).count_of_task(request.task_id);
  return out;
}

nlohmann::json create_task(ToolContext& context, const planning::TaskAddRequest& request) {
  planning::Caller caller = planning_caller(context);
  planning::TaskAdded added = planning::task_add(caller, request);
  return {{"task_id", added.id},
          {"name", added.name},
          {"status", planning::seed_task_status(TaskStatus::pending, added.ready)},
          {"depends_on", added.depends_on}};
}

DeferredWork start_task_attempt(ToolContext& context, const runs::AttemptStartRequest& request) {
  runs::AttemptControl& attempts = attempts_of(context);
  auto start =
      std::make_shared<runs::AttemptStart>(attempts.plan_start(context.execution_id, request));
  auto made = std::make_shared<git::WorktreeCreated>();
  DeferredWork work;
  work.work = [start, made] { *made = runs::AttemptControl::run_start(*start); };
  // The finishing call's own context: nothing captured outlives the daemon.
  work.finish = [start, made](ToolContext& finishing) {
    store::TaskAttemptRow row = attempts_of(finishing).record_start(*start, *made);
    nlohmann::json out = runs::attempt_json(row, std::nullopt);
    out["hint"] = "its agent launches now: follow it with get_attempt_status and tail_attempt_logs";
    return out;
  };
  return work;
}

nlohmann::json get_attempt_status(ToolContext& context, const control::AttemptIdRequest& request) {
  runs::AttemptControl& attempts = attempts_of(context);
  store::TaskAttemptRow attempt = attempts.require(request.attempt_id);
  nlohmann::json out = runs::attempt_json(attempt, attempts.latest_turn(attempt));
  if (auto task = store::PlanRepository(context.db).task(attempt.task_id)) {
    out["task_status"] = planning::seed_task_status(task->status, true);
    if (task->error) out["task_error"] = *task->error;
    if (auto summary = planning::outcome_summary(task->outcome)) out["task_outcome"] = *summary;
  }
  return out;
}

nlohmann::json tail_attempt_logs(ToolContext& context, const control::TailLogsRequest& request) {
  runs::AttemptControl& attempts = attempts_of(context);
  store::TaskAttemptRow attempt = attempts.require(request.attempt_id);
  nlohmann::json out = {{"attempt_id", attempt.id}, {"turn", attempt.turns}};
  if (!attempt.execution_id) {
    out["entries"] = nlohmann::json::array();
    out["last_entry_index"] = 0;
    out["hint"] = "no turn has launched yet: ask get_attempt_status";
    return out;
  }
  execution::LogQuery query;
  query.after = request.after_entry_index;
  query.cursor = request.cursor;
  query.limit = request.limit;
  execution::LogPage page =
      execution::read_execution_log(attempts.logs_dir(), *attempt.execution_id, query);
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& line : page.lines) {
    entries.push_back({{"index", line.number},
                       {"stream", line.stream == 'e' ? "stderr" : "stdout"},
                       {"text", line.text}});
  }
  out["execution_id"] = *attempt.execution_id;
  out["entries"] = std::move(entries);
  out["last_entry_index"] = page.last_line;
  if (page.next_cursor) out["next_cursor"] = *page.next_cursor;
  out["final"] = !attempts.live(attempt);
  return out;
}

nlohmann::json file_json(const git::WorkTreeFile& file) {
  nlohmann::json out = {{"path", file.path},
                        {"status", file.status},
                        {"additions", file.additions},
                        {"deletions", file.deletions}};
  if (file.old_path) out["old_path"] = *file.old_path;
  if (file.binary) out["binary"] = true;
  return out;
}

// The attempt's worktree diffed against its base on a pool thread.
DeferredWork attempt_diff(ToolContext& context, const std::string& attempt_id,
                          std::vector<std::string> paths, std::size_t patch_bytes) {
  runs::AttemptControl& attempts = attempts_of(context);
  store::TaskAttemptRow attempt = attempts.require(attempt_id);
  auto diff = std::make_shared<git::WorkTreeDiff>();
  DeferredWork work;
  work.work = [attempt, paths = std::move(paths), patch_bytes, diff] {
    *diff = git::work_tree_diff(attempt.worktree, attempt.base_commit, paths, patch_bytes);
  };
  work.finish = [attempt, diff, patch_bytes](ToolContext&) {
    nlohmann::json out = {{"attempt_id", attempt.id},
                          {"branch", attempt.branch},
                          {"base_commit", attempt.base_commit}};
    if (patch_bytes > 0) {
      out["patch"] = diff->patch;
      out["truncated"] = diff->patch_truncated;
      if (diff->patch_truncated) {
        out["hint"] = "the patch was cut at max_bytes: ask for fewer paths, or a larger max_bytes";
      }
      return out;
    }
    nlohmann::json files = nlohmann::json::array();
    for (std::size_t i = 0; i < diff->files.size() && i < limits::kMaxAttemptChangedFiles; ++i) {
      files.push_back(file_json(diff->files[i]));
    }
    out["files"] = std::move(files);
    out["file_count"] = diff->files.size();
    out["truncated"] = diff->files.size() > limits::kMaxAttemptChangedFiles;
    return out;
  };
  return work;
}

DeferredWork get_attempt_changes(ToolContext& context, const control::AttemptIdRequest& request) {
  return attempt_diff(context, request.attempt_id, {}, 0);
}

DeferredWork get_attempt_patch(ToolContext& context, const control::AttemptPatchRequest& request) {
  return attempt_diff(context, request.attempt_id, request.paths, request.max_bytes);
}

nlohmann::json follow_up(ToolContext& context, const control::FollowUpRequest& request) {
  runs::AttemptControl& attempts = attempts_of(context);
  runs::FollowUpOutcome outcome = attempts.follow_up(context.execution_id, request.attempt_id,
                                                     request.mode, request.prompt, context.events);
  nlohmann::json out = runs::attempt_json(outcome.attempt, attempts.latest_turn(outcome.attempt));
  out["delivered_as"] = outcome.delivered_as;
  if (outcome.message_id) out["message_id"] = *outcome.message_id;
  return out;
}

nlohmann::json stop_attempt(ToolContext& context, const control::StopAttemptRequest& request) {
  runs::AttemptControl& attempts = attempts_of(context);
  const bool signalled = attempts.stop(context.execution_id, request.attempt_id, request.force);
  store::TaskAttemptRow attempt = attempts.require(request.attempt_id);
  nlohmann::json out = runs::attempt_json(attempt, attempts.latest_turn(attempt));
  out["signalled"] = signalled;
  if (!signalled) out["hint"] = "no turn of it was running; a queued follow-up was dropped";
  return out;
}

}  // namespace

std::span<const ToolRow> control_tools() {
  using namespace control;
  static constexpr ToolRow kTools[] = {
      {"list_executors", ToolMode::immediate, false,
       immediate<ListExecutorsRequest, mcp::list_executors>},
      {"list_tasks", ToolMode::immediate, false, immediate<ListTasksRequest, mcp::list_tasks>},
      {"get_task", ToolMode::immediate, false, immediate<TaskIdRequest, mcp::get_task>},
      {"create_task", ToolMode::immediate, true,
       immediate<planning::TaskAddRequest, mcp::create_task>},
      {"start_task_attempt", ToolMode::deferred, true,
       deferred<runs::AttemptStartRequest, mcp::start_task_attempt>},
      {"get_attempt_status", ToolMode::immediate, false,
       immediate<AttemptIdRequest, mcp::get_attempt_status>},
      {"tail_attempt_logs", ToolMode::immediate, false,
       immediate<TailLogsRequest, mcp::tail_attempt_logs>},
      {"get_attempt_changes", ToolMode::deferred, false,
       deferred<AttemptIdRequest, mcp::get_attempt_changes>},
      {"get_attempt_patch", ToolMode::deferred, false,
       deferred<AttemptPatchRequest, mcp::get_attempt_patch>},
      {"follow_up", ToolMode::immediate, true, immediate<FollowUpRequest, mcp::follow_up>},
      {"stop_attempt", ToolMode::immediate, true, immediate<StopAttemptRequest, mcp::stop_attempt>},
  };
  return kTools;
}

}  // namespace mission::daemon::mcp
