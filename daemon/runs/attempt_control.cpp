#include "daemon/runs/attempt_control.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string_view>

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/coordination/coordination.hpp"
#include "daemon/execution/agent_launch.hpp"
#include "daemon/planning/planning_support.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/runs/run_options.hpp"
#include "daemon/runs/task_prompt.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/ownership.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tasks/task_lifecycle.hpp"
#include "shared/agent_environment.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"

namespace mission::daemon::runs {
namespace {

void require_prompt_size(const std::optional<std::string>& prompt, const char* field) {
  if (prompt && prompt->size() > limits::kMaxAttemptPromptBytes) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::string(field) + " is " + std::to_string(prompt->size()) +
                           " bytes, over the limit of " +
                           std::to_string(limits::kMaxAttemptPromptBytes),
                       "say it shorter, or put the detail in a file in the worktree and name it",
                       {{"field", field}});
  }
}

// An attempt's agent gets the daemon's environment (the coordinator's own
// is not the daemon's to know), with the MISSION_* names of its turn set
// over it by launch_turn and the launch.
std::map<std::string, std::string> daemon_environment() {
  return process_environment();
}

std::string follow_up_prompt(const store::PlannedTaskRow& task, std::int64_t turn,
                             const std::string& prompt) {
  return "# Follow-up on task '" + task.name + "' (" + task.id + "), turn " + std::to_string(turn) +
         "\n\nYou are in the same worktree as before; what you did there is still there.\n\n" +
         prompt + "\n";
}

// The prompt of an attempt's first turn: the task's own (task_prompt, as a
// run gives it, `number` being which of the task's attempts this is) and
// the coordinator's words after it.
std::string first_turn_prompt(store::Database& db, planning::PlanCache& plans,
                              const store::TaskAttemptRow& attempt, std::int64_t number,
                              const std::optional<std::string>& coordinator_words) {
  store::PlannedTaskRow task = planning::require_planned_task(db, attempt.task_id, "task_id");
  PromptInput input;
  input.workflow_id = task.mission_id;
  input.workflow_name = planning::require_workflow(db, task.mission_id, "workflow_id").name;
  input.attempt = number;
  input.max_attempts = input.attempt;
  input.branch = attempt.branch;
  input.task = std::move(task);
  std::string prompt = task_prompt(db, &plans, input);
  if (coordinator_words) prompt += "\n## From your coordinator\n\n" + *coordinator_words + "\n";
  return prompt;
}

}  // namespace

AttemptControl::AttemptControl(RunServices services)
    : services_(services), launch_turn_(services.loop, [this] { launch_queued(); }) {
  end_observer_ = services_.launcher.add_end_observer([this](const std::string& execution_id) {
    // A follow-up queued behind the turn that just ended launches now.
    if (auto attempt = store::TaskAttemptRepository(services_.db).of_execution(execution_id)) {
      if (attempt->queued_prompt && !attempt->stopped) schedule(attempt->id);
    }
  });
}

AttemptControl::~AttemptControl() {
  services_.launcher.remove_end_observer(end_observer_);
}

AttemptStart AttemptControl::plan_start(const std::string& coordinator,
                                        AttemptStartRequest request) {
  store::Database& db = services_.db;
  const adapters::AgentAdapter* adapter = adapters::find_adapter(request.executor);
  if (adapter == nullptr) {
    throw MissionError(ErrorCode::invalid_argument, "no executor named '" + request.executor + "'",
                       "pick one list_executors names", {{"field", "executor"}});
  }
  if (request.executor == "generic" && request.args.empty()) {
    throw MissionError(
        ErrorCode::invalid_argument, "the generic executor needs its command in args",
        "give the command and its arguments in args; the task reaches it in MISSION_TASK_PROMPT",
        {{"field", "args"}});
  }
  require_prompt_size(request.prompt, "prompt");
  store::PlannedTaskRow task = planning::require_planned_task(db, request.task_id, "task_id");
  store::require_task_writer(db, coordinator, planning::require_task(db, task.id));
  if (is_final(task.status)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "task " + task.id + " has ended (" + std::string(name_of(task.status)) + ")",
                       "start attempts on tasks still to do (list_tasks with status pending)",
                       {{"task_id", task.id}});
  }
  // As start_task would refuse it: the workflow must be running or ready
  // and the task's prerequisites done.
  planning::require_startable(db, &services_.plans, task.id);
  if (auto held = store::ClaimRepository(db).claim_of(task.id)) {
    // The hint names the attempt to wait for or stop, when it is one.
    auto attempt = store::TaskAttemptRepository(db).of_execution(held->execution_id);
    nlohmann::json details = {{"task_id", task.id}, {"already_claimed_by", held->execution_id}};
    if (attempt) details["attempt_id"] = attempt->id;
    throw MissionError(
        ErrorCode::already_claimed,
        "task " + task.id + " is held by agent execution " + held->execution_id,
        attempt ? "wait for attempt " + attempt->id +
                      " to end (get_attempt_status), or stop it "
                      "with stop_attempt"
                : "another agent claimed it: wait until it ends the task or its claim, or start an "
                  "attempt on another task (list_tasks with status ready)",
        std::move(details));
  }
  AttemptStart start;
  start.coordinator = coordinator;
  workspaces::CreateRequest worktree;
  worktree.workflow_id = task.mission_id;
  worktree.base_branch = request.base_branch;
  worktree.task_ids = {task.id};
  // The daemon makes the worktree: the coordinator need not own a workspace.
  start.worktree = workspaces::plan_create(db, "", worktree);
  start.request = std::move(request);
  return start;
}

git::WorktreeCreated AttemptControl::run_start(const AttemptStart& start) {
  return workspaces::run_create(start.worktree);
}

store::TaskAttemptRow AttemptControl::record_start(const AttemptStart& start,
                                                   const git::WorktreeCreated& made) {
  store::Database& db = services_.db;
  const std::int64_t now = unix_ms_now();
  store::WorkspaceRow workspace = workspaces::record_create(db, start.worktree, made, now);
  store::TaskAttemptRow row;
  row.id = new_random_id("at-", 10);
  row.task_id = start.request.task_id;
  row.coordinator_id = start.coordinator;
  row.executor = start.request.executor;
  row.command = nlohmann::json(start.request.args).dump();
  row.workspace_id = workspace.id;
  row.worktree = made.path;
  row.branch = made.branch;
  row.base_commit = made.base_commit;
  row.queued_prompt = first_turn_prompt(
      db, services_.plans, row, store::TaskAttemptRepository(db).count_of_task(row.task_id) + 1,
      start.request.prompt);
  row.created_at = row.updated_at = now;
  store::TaskAttemptRepository(db).insert(row);
  schedule(row.id);
  return row;
}

store::TaskAttemptRow AttemptControl::require(const std::string& attempt_id) {
  if (auto row = store::TaskAttemptRepository(services_.db).find(attempt_id)) return *row;
  throw MissionError(ErrorCode::not_found, "no attempt " + attempt_id,
                     "get_task lists a task's attempts with their ids",
                     {{"attempt_id", attempt_id}});
}

store::TaskAttemptRow AttemptControl::require_coordinator(const std::string& coordinator,
                                                          const std::string& attempt_id) {
  store::TaskAttemptRow row = require(attempt_id);
  if (row.coordinator_id != coordinator) {
    throw MissionError(
        ErrorCode::forbidden, "attempt " + attempt_id + " was started by another coordinator",
        "steer only the attempts you started (get_task lists them with their coordinator)",
        {{"attempt_id", attempt_id}});
  }
  return row;
}

std::optional<store::ExecutionRow> AttemptControl::latest_turn(
    const store::TaskAttemptRow& attempt) {
  if (!attempt.execution_id) return std::nullopt;
  return store::ExecutionRepository(services_.db).find(*attempt.execution_id);
}

bool AttemptControl::live(const store::TaskAttemptRow& attempt) {
  auto turn = latest_turn(attempt);
  return turn && !is_final(turn->state);
}

FollowUpOutcome AttemptControl::follow_up(const std::string& coordinator,
                                          const std::string& attempt_id, FollowUpMode mode,
                                          const std::optional<std::string>& prompt,
                                          events::EventBatch& events) {
  require_prompt_size(prompt, "prompt");
  store::TaskAttemptRow attempt = require_coordinator(coordinator, attempt_id);
  store::TaskAttemptRepository attempts(services_.db);
  FollowUpOutcome outcome;
  const bool running = live(attempt);
  if (mode == FollowUpMode::cancel) {
    if (!attempt.queued_prompt || !attempt.execution_id) {
      throw MissionError(ErrorCode::invalid_argument,
                         "attempt " + attempt_id + " has no queued follow-up",
                         "queue one with follow_up mode queue; a sent one cannot be taken back",
                         {{"attempt_id", attempt_id}});
    }
    attempt.queued_prompt.reset();
    outcome.delivered_as = "cancelled";
  } else if (mode == FollowUpMode::send && running) {
    // The agent is at work: the prompt reaches it as a message (on its
    // stdin or terminal when it takes them there, else through message tools).
    store::PlannedTaskRow task =
        planning::require_planned_task(services_.db, attempt.task_id, "task_id");
    coordination::MessageSendRequest request;
    request.recipient_id = *attempt.execution_id;
    request.content.type = MessageType::task_assignment;
    request.content.subject = "Follow-up on task '" + task.name + "'";
    request.content.body = nlohmann::json(*prompt).dump();
    request.content.priority = MessagePriority::high;
    request.content.workflow_id = task.mission_id;
    request.content.task_id = task.id;
    coordination::Caller caller{services_.db, coordinator, events, &services_.plans,
                                &services_.launcher};
    nlohmann::json sent = coordination::message_send(caller, request);
    outcome.delivered_as = "message";
    outcome.message_id = sent.at("id").get<std::string>();
  } else {
    if (attempt.queued_prompt && !attempt.execution_id) {
      throw MissionError(ErrorCode::invalid_argument,
                         "attempt " + attempt_id + " has not launched its first turn yet",
                         "wait until get_attempt_status shows it running, then queue the follow-up",
                         {{"attempt_id", attempt_id}});
    }
    if (attempt.queued_prompt) {
      throw MissionError(ErrorCode::invalid_argument,
                         "attempt " + attempt_id + " already has a follow-up queued",
                         "cancel it with follow_up mode cancel first, or wait for it to start",
                         {{"attempt_id", attempt_id}});
    }
    // An attempt whose turns never ran (none launched, or the launch
    // failed) still needs its task.
    attempt.queued_prompt =
        attempt.turns == 0 || attempt.launch_error
            ? first_turn_prompt(
                  services_.db, services_.plans, attempt,
                  store::TaskAttemptRepository(services_.db).count_of_task(attempt.task_id), prompt)
            : follow_up_prompt(
                  planning::require_planned_task(services_.db, attempt.task_id, "task_id"),
                  attempt.turns + 1, *prompt);
    attempt.stopped = false;
    if (running) {
      outcome.delivered_as = "queued";
    } else {
      outcome.delivered_as = "turn";
      schedule(attempt.id);
    }
  }
  attempt.updated_at = unix_ms_now();
  attempts.update(attempt);
  outcome.attempt = attempt;
  return outcome;
}

bool AttemptControl::stop(const std::string& coordinator, const std::string& attempt_id,
                          bool force) {
  store::TaskAttemptRow attempt = require_coordinator(coordinator, attempt_id);
  attempt.queued_prompt.reset();
  attempt.stopped = true;
  attempt.updated_at = unix_ms_now();
  store::TaskAttemptRepository(services_.db).update(attempt);
  if (!attempt.execution_id) return false;
  return services_.launcher.stop(*attempt.execution_id, force);
}

void AttemptControl::resume() {
  for (const auto& attempt : store::TaskAttemptRepository(services_.db).queued()) {
    if (!attempt.stopped) schedule(attempt.id);
  }
}

void AttemptControl::schedule(const std::string& attempt_id) {
  to_launch_.push_back(attempt_id);
  launch_turn_.schedule();
}

void AttemptControl::launch_queued() {
  std::vector<std::string> ids;
  ids.swap(to_launch_);
  for (const auto& id : ids) {
    try {
      launch_turn(id);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: attempt %s: %s\n", id.c_str(), e.what());
    }
  }
}

void AttemptControl::launch_turn(const std::string& attempt_id) {
  store::Database& db = services_.db;
  auto found = store::TaskAttemptRepository(db).find(attempt_id);
  // Rolled back, cancelled, stopped, or a turn still runs (its end
  // schedules this again).
  if (!found || !found->queued_prompt || found->stopped || live(*found)) return;
  store::TaskAttemptRow attempt = *found;
  const std::string prompt = *attempt.queued_prompt;
  auto task = store::PlanRepository(db).task(attempt.task_id);
  const std::int64_t turn = attempt.turns + 1;

  const std::filesystem::path prompt_file = write_prompt_file(
      services_.paths, attempt.id, "turn-" + std::to_string(turn) + ".md", prompt);

  std::vector<std::string> args =
      nlohmann::json::parse(attempt.command).get<std::vector<std::string>>();
  execution::AgentLaunchRequest request;
  request.spec.kind = ExecutionKind::launched;
  request.spec.state = ExecutionState::launching;
  request.spec.adapter = attempt.executor;
  request.spec.cwd = attempt.worktree;
  request.spec.command =
      attempt.executor == "generic" ? args : prompt_arguments(attempt.executor, args, prompt, true);
  request.detach = true;
  // Answered on stdin as the attempt's first turn was (run_service.cpp).
  request.stdin_answers = adapters::require_adapter(attempt.executor).capabilities.stdin_lines;
  request.env = daemon_environment();
  request.env["MISSION_ATTEMPT_ID"] = attempt.id;
  request.env["MISSION_TASK_ID"] = attempt.task_id;
  request.env["MISSION_TASK_ATTEMPT"] = std::to_string(turn);
  if (task) {
    request.env["MISSION_TASK_NAME"] = task->name;
    request.env["MISSION_WORKFLOW_ID"] = task->mission_id;
  }
  request.env["MISSION_TASK_PROMPT"] = prompt.substr(0, kMaxPromptEnvBytes);
  request.env["MISSION_TASK_PROMPT_FILE"] = prompt_file.string();

  try {
    execution::AgentLaunchServices launch{db, services_.events, services_.launcher,
                                          services_.paths};
    execution::launch_agent(launch, request, [&](const execution::CreatedExecution& created) {
      const std::int64_t now = unix_ms_now();
      // The agent holds its task so it may start and complete it; a task
      // that has ended (a follow-up after it was done) is not claimed.
      store::ClaimRepository claims(db);
      if (auto held = claims.claim_of(attempt.task_id)) {
        throw MissionError(
            ErrorCode::already_claimed,
            "task " + attempt.task_id + " is held by execution " + held->execution_id);
      }
      if (task && !is_final(task->status)) {
        tasks::TaskLifecycle(db, nullptr).claim(attempt.task_id, created.row.id, now);
      }
      attempt.execution_id = created.row.id;
      attempt.turns = turn;
      attempt.queued_prompt.reset();
      attempt.launch_error.reset();
      attempt.updated_at = now;
      store::TaskAttemptRepository(db).update(attempt);
    });
  } catch (const std::exception& e) {
    // The turn will not launch by itself again: the coordinator reads why
    // in get_attempt_status and may follow up.
    store::Transaction transaction(db);
    auto current = store::TaskAttemptRepository(db).find(attempt_id);
    if (!current) return;
    current->queued_prompt.reset();
    current->launch_error = e.what();
    current->updated_at = unix_ms_now();
    store::TaskAttemptRepository(db).update(*current);
    transaction.commit();
  }
}

nlohmann::json attempt_json(const store::TaskAttemptRow& attempt,
                            const std::optional<store::ExecutionRow>& turn) {
  nlohmann::json out = {
      {"attempt_id", attempt.id},
      {"task_id", attempt.task_id},
      {"coordinator_id", attempt.coordinator_id},
      {"executor", attempt.executor},
      {"worktree", attempt.worktree},
      {"branch", attempt.branch},
      {"base_commit", attempt.base_commit},
      {"turns", attempt.turns},
      {"follow_up_queued", attempt.queued_prompt.has_value() && attempt.turns > 0},
      {"stopped", attempt.stopped},
      {"created_at", attempt.created_at}};
  // starting: its first turn has not launched yet; then the latest turn's
  // execution state (launching, running, completed, failed, stopped, lost).
  std::string state = "starting";
  if (turn) {
    state = name_of(turn->state);
    out["execution_id"] = turn->id;
    if (turn->exit_code) out["exit_code"] = *turn->exit_code;
    if (turn->exit_signal) out["exit_signal"] = *turn->exit_signal;
    if (turn->ended_at) out["ended_at"] = *turn->ended_at;
  } else if (attempt.launch_error || attempt.stopped) {
    state = "not_launched";
  }
  out["state"] = state;
  out["final"] = turn ? is_final(turn->state) : state == "not_launched";
  if (attempt.launch_error) out["launch_error"] = *attempt.launch_error;
  return out;
}

}  // namespace mission::daemon::runs
