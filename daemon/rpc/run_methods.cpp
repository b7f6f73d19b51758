#include "daemon/rpc/run_methods.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "daemon/git/worktrees.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/runs/run_report.hpp"
#include "daemon/runs/run_service.hpp"
#include "daemon/sandbox/allowed_writes.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"
#include "daemon/sandbox/secret_paths.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "shared/agent_environment.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, WorkflowRunRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.options = j;
  request.options.erase("id");
}

void from_json(const nlohmann::json& j, TaskDiffRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.task = j.at("task").get<std::string>();
  request.max_bytes = j.value("maxBytes", limits::kMaxAttemptPatchBytes);
}

void from_json(const nlohmann::json& j, WorkflowStopRequest& request) {
  request.id = j.at("id").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowRunStatusRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("runId")) request.run_id = j.at("runId").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowRunReportRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("runId")) request.run_id = j.at("runId").get<std::string>();
  request.page = decode_list_params(j);
}

void from_json(const nlohmann::json& j, WorkflowLandedRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.run_id = j.at("runId").get<std::string>();
  request.into = j.at("into").get<std::string>();
  request.commit = j.at("commit").get<std::string>();
  request.how = j.at("how").get<std::string>();
}

void from_json(const nlohmann::json& j, TaskApprovalRequest& request) {
  request.task_id = j.at("taskId").get<std::string>();
  request.person = j.value("from", std::string("person"));
  if (j.contains("reason")) request.reason = j.at("reason").get<std::string>();
}

void from_json(const nlohmann::json& j, WorkflowBudgetRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("task")) request.change.task_id = j.at("task").get<std::string>();
  if (j.contains("tokens")) request.change.tokens = j.at("tokens").get<std::int64_t>();
  if (j.contains("usd")) request.change.usd = j.at("usd").get<double>();
}

nlohmann::json handle_workflow_budget(MethodContext& context,
                                      const WorkflowBudgetRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.set_budget(request.id, request.change))}};
}

nlohmann::json handle_task_approve(MethodContext& context, const TaskApprovalRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.approve(request.task_id, request.person))}};
}

nlohmann::json handle_task_reject(MethodContext& context, const TaskApprovalRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.reject(request.task_id, request.person,
                                                  request.reason.value_or("")))}};
}

namespace {

// Starts a run of workflow `id` with `options`: checked and planned now,
// its integration branch made on a pool thread, answered once recorded.
void start_run(MethodContext& context, const std::string& id, runs::RunOptions options) {
  runs::RunService& service = context.services.runs;
  // Refused before anything is made: every task's agent would be refused.
  if (options.sandbox) sandbox::require_confinable();
  options.sandbox_state = sandbox::confinement_state(options.sandbox) +
                          sandbox::allowed_writes_note(options.allow_write) +
                          sandbox::hidden_paths_note(options.hide) +
                          sandbox::network_note(options.network);
  auto start = std::make_shared<runs::RunStart>(service.plan_start(id, std::move(options)));
  // The main checkout's .git is never the agents' to write.
  sandbox::check_allowed_writes(start->options.allow_write,
                                std::filesystem::path(start->repository) / ".git");
  sandbox::check_hidden_paths(start->options.hide);
  auto error = std::make_shared<std::optional<MissionError>>();
  context.deferred =
      DeferredReply{[start, error] {
                      try {
                        runs::RunService::run_start(*start);
                      } catch (const MissionError& e) {
                        *error = e;
                      } catch (const std::exception& e) {
                        *error = MissionError(ErrorCode::git_error, e.what());
                      }
                    },
                    [start, error, &service](store::Database&, events::EventBatch& events) {
                      if (*error) throw **error;
                      store::RunRow row = service.record_start(*start, events);
                      service.activate(row.id);
                      return nlohmann::json{{"run", service.run_json(row)}};
                    }};
}

store::RunRow require_run(store::Database& db, const std::string& workflow_id,
                          const std::optional<std::string>& run_id);

}  // namespace

nlohmann::json handle_workflow_run(MethodContext& context, const WorkflowRunRequest& request) {
  start_run(context, request.id, runs::options_from_json(request.options));
  return nullptr;
}

nlohmann::json handle_workflow_retry(MethodContext& context, const WorkflowResetRequest& request) {
  store::Database& db = context.services.db;
  const store::RunRow last = require_run(db, request.id, std::nullopt);
  if (last.status == RunStatus::running || last.status == RunStatus::stopping) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + request.id + " is running (" + last.id +
            "): it retries a failed attempt itself, up to its --max-attempts",
        "wait for the run to end, or stop it first: mission workflows stop " + request.id,
        {{"workflow_id", request.id}, {"run_id", last.id}});
  }
  const nlohmann::json stored = nlohmann::json::parse(last.options);
  runs::RunOptions options = runs::options_from_json(stored);
  // The values the last run's agents had are never stored (they may be
  // secrets): the daemon's own stand in for the names that run had.
  const std::map<std::string, std::string> daemon_env = process_environment();
  nlohmann::json missing = nlohmann::json::array();
  for (const auto& name : stored.value("envNames", std::vector<std::string>{})) {
    auto found = daemon_env.find(name);
    if (found != daemon_env.end()) {
      options.env[name] = found->second;
    } else {
      missing.push_back(name);
    }
  }
  options.env = without_execution_variables(std::move(options.env));
  nlohmann::json reset_names;
  {
    store::Transaction transaction(db);
    planning::Caller caller = person_caller(context, "");
    const nlohmann::json reset = planning::workflow_reset(caller, request.id, request.task);
    reset_names = reset.at("tasks_reset");
    if (reset_names.empty() &&
        planning::require_workflow(db, request.id, "id").status == MissionStatus::completed) {
      throw MissionError(ErrorCode::invalid_argument,
                         "workflow " + request.id + " has nothing to retry: every task is done",
                         "plan more work, or land it: mission workflows land " + request.id,
                         {{"workflow_id", request.id}});
    }
    transaction.commit();
  }
  start_run(context, request.id, std::move(options));
  // Said with the run once it answers: what is tried again, and which
  // variables the agents lack.
  auto finish = std::move(context.deferred->finish);
  context.deferred->finish = [finish = std::move(finish), reset_names, missing](
                                 store::Database& db, events::EventBatch& events) {
    nlohmann::json result = finish(db, events);
    result["tasksReset"] = reset_names;
    result["environmentMissing"] = missing;
    return result;
  };
  return nullptr;
}

nlohmann::json handle_workflow_stop(MethodContext& context, const WorkflowStopRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.stop(request.id))}};
}

namespace {

// The run named, else the workflow's latest; not_found naming which.
store::RunRow require_run(store::Database& db, const std::string& workflow_id,
                          const std::optional<std::string>& run_id) {
  store::RunRepository repository(db);
  std::optional<store::RunRow> run =
      run_id ? repository.find(*run_id) : repository.latest_of(workflow_id);
  if (!run && !store::MissionRepository(db).find(workflow_id)) {
    throw MissionError(ErrorCode::not_found, "workflow " + workflow_id + " does not exist",
                       "mission workflows list shows the workflows",
                       {{"workflow_id", workflow_id}});
  }
  if (!run || run->workflow_id != workflow_id) {
    throw MissionError(ErrorCode::not_found,
                       run_id ? "workflow " + workflow_id + " has no run " + *run_id
                              : "workflow " + workflow_id + " has never been run",
                       "start one with mission workflows run " + workflow_id,
                       {{"workflow_id", workflow_id}});
  }
  return *run;
}

}  // namespace

nlohmann::json handle_workflow_run_status(MethodContext& context,
                                          const WorkflowRunStatusRequest& request) {
  return {{"run", context.services.runs.run_json(
                      require_run(context.services.db, request.id, request.run_id))}};
}

nlohmann::json handle_workflow_landed(MethodContext& context,
                                      const WorkflowLandedRequest& request) {
  store::RunRow run = require_run(context.services.db, request.id, request.run_id);
  if (run.status == RunStatus::running || run.status == RunStatus::stopping) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the run " + run.id + " of workflow " + request.id + " is still running",
                       "wait for it to end (mission workflows show " + request.id +
                           " --follow) or stop it, then land it");
  }
  const nlohmann::json landed = {{"into", request.into},
                                 {"commit", request.commit},
                                 {"how", request.how},
                                 {"at", format_utc_iso8601(unix_ms_now())}};
  store::RunRepository(context.services.db).set_landed(run.id, landed.dump());
  run.landed = landed.dump();
  return {{"run", context.services.runs.run_json(run)}};
}

nlohmann::json handle_workflow_run_report(MethodContext& context,
                                          const WorkflowRunReportRequest& request) {
  store::Database& db = context.services.db;
  const store::RunRow run = require_run(db, request.id, request.run_id);
  const std::vector<store::PlannedTaskRow> tasks =
      store::PlanRepository(db).planned_tasks(run.workflow_id);
  // Positions are plan order from 1; in plan order by default.
  ListParams params = request.page;
  if (!params.cursor && !params.after) params.after = 0;
  const store::PageRequest wanted = page_request(params, limits::kMaxPageItems);
  const auto count = static_cast<std::int64_t>(tasks.size());
  std::vector<std::int64_t> positions;
  // A position past either end (any integer the schema lets through) is
  // taken as that end before the arithmetic.
  if (wanted.after) {
    for (std::int64_t p = std::clamp<std::int64_t>(*wanted.after, 0, count) + 1;
         p <= count && positions.size() < wanted.limit; ++p) {
      positions.push_back(p);
    }
  } else {
    for (std::int64_t p = std::clamp<std::int64_t>(*wanted.cursor, 1, count + 1) - 1;
         p >= 1 && positions.size() < wanted.limit; --p) {
      positions.push_back(p);
    }
  }
  const bool more =
      !positions.empty() && (wanted.after ? positions.back() < count : positions.back() > 1);
  std::vector<std::string> ids;
  for (std::int64_t p : positions) ids.push_back(tasks[static_cast<std::size_t>(p - 1)].id);
  std::map<std::string, std::vector<store::AttemptRow>> by_task;
  for (auto& attempt : store::RunRepository(db).attempts_of_tasks(run.id, ids)) {
    by_task[attempt.task_id].push_back(std::move(attempt));
  }
  nlohmann::json items = nlohmann::json::array();
  for (std::int64_t p : positions) {
    const store::PlannedTaskRow& task = tasks[static_cast<std::size_t>(p - 1)];
    items.push_back(runs::run_task_json(db, task, by_task[task.id]));
  }
  nlohmann::json out = {{"run", runs::run_summary_json(db, run, tasks)}};
  put_page(out, "tasks", std::move(items), positions, more, wanted);
  return out;
}

nlohmann::json handle_task_diff(MethodContext& context, const TaskDiffRequest& request) {
  store::Database& db = context.services.db;
  const store::RunRow run = require_run(db, request.id, std::nullopt);
  auto ref = store::PlanRepository(db).planned_task_ref(run.workflow_id, request.task);
  if (!ref) {
    throw MissionError(ErrorCode::not_found,
                       "workflow " + request.id + " has no task '" + request.task + "'",
                       "name one of its tasks by name or id: mission workflows status " +
                           request.id + " lists them",
                       {{"workflow_id", request.id}, {"task", request.task}});
  }
  const std::string task_ids[] = {ref->id};
  const std::vector<store::AttemptRow> attempts =
      store::RunRepository(db).attempts_of_tasks(run.id, task_ids);
  // The same attempt `mission workflows diff WF TASK` shows: the newest
  // that merged, else the newest, by the branch it left.
  const nlohmann::json task =
      runs::run_task_json(db, *store::PlanRepository(db).task(ref->id), attempts);
  const nlohmann::json all = task.value("attempts", nlohmann::json::array());
  nlohmann::json chosen;
  for (auto attempt = all.rbegin(); attempt != all.rend() && chosen.is_null(); ++attempt) {
    if (attempt->contains("mergeCommit")) chosen = *attempt;
  }
  std::string tip;
  if (!chosen.is_null()) {
    tip = chosen.value("mergeCommit", "");
  } else if (!all.empty() && all.back().contains("branch")) {
    chosen = all.back();
    tip = "refs/heads/" + chosen.value("branch", "");
  }
  nlohmann::json head = {{"taskId", ref->id}, {"name", ref->name},
                         {"runId", run.id},   {"status", task.value("status", "")},
                         {"attempts", all},   {"files", nlohmann::json::array()},
                         {"patch", nullptr}};
  // No attempt left work to show yet: its attempts alone.
  if (tip.empty()) return head;
  head["attempt"] = chosen.value("attempt", 0);
  head["tip"] = tip;
  head["merged"] = chosen.contains("mergeCommit");
  const std::string base = chosen.value("baseCommit", run.base_commit);
  struct Work {
    std::string repository, base, tip;
    std::size_t max_bytes;
    git::WorkTreeDiff diff;
  };
  auto work = std::make_shared<Work>(Work{run.repository, base, tip, request.max_bytes, {}});
  context.deferred = DeferredReply{[work] {
                                     work->diff = git::task_diff(work->repository, work->base,
                                                                 work->tip, work->max_bytes);
                                   },
                                   [work, head](store::Database&, events::EventBatch&) {
                                     nlohmann::json out = head;
                                     nlohmann::json files = nlohmann::json::array();
                                     for (const auto& file : work->diff.files) {
                                       nlohmann::json f = {{"path", file.path},
                                                           {"status", file.status},
                                                           {"additions", file.additions},
                                                           {"deletions", file.deletions},
                                                           {"binary", file.binary}};
                                       if (file.old_path) f["oldPath"] = *file.old_path;
                                       files.push_back(std::move(f));
                                     }
                                     out["files"] = std::move(files);
                                     out["patch"] = work->diff.patch;
                                     out["patchTruncated"] = work->diff.patch_truncated;
                                     return out;
                                   }};
  return nullptr;
}

}  // namespace mission::daemon
