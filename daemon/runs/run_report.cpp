#include "daemon/runs/run_report.hpp"

#include <algorithm>
#include <map>

#include "daemon/execution/refused_write_record.hpp"
#include "daemon/runs/run_options.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/store/usage_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/time_format.hpp"
#include "shared/usage_limits.hpp"

namespace mission::daemon::runs {
namespace {

// A count of tokens from complete_task's metadata: a whole number, not
// negative (the tool's schema says so; a record from elsewhere may not).
std::optional<std::int64_t> token_count(const nlohmann::json& metadata, const char* key) {
  auto found = metadata.find(key);
  if (found == metadata.end() || !found->is_number_integer()) return std::nullopt;
  const std::int64_t value = found->get<std::int64_t>();
  return value >= 0 ? std::optional(value) : std::nullopt;
}

std::int64_t duration_of(const store::AttemptRow& attempt) {
  return attempt.ended_at.value_or(unix_ms_now()) - attempt.started_at;
}

void put_tokens(nlohmann::json& out, std::int64_t input, std::int64_t output) {
  out["tokens"] = {{"input", input}, {"output", output}, {"total", input + output}};
}

// Cache tokens and cost, which only a stream states: set when there are some.
void put_stream_extras(nlohmann::json& out, std::int64_t cache_read, std::int64_t cache_write,
                       std::optional<double> cost_usd) {
  if (cache_read > 0) out["tokens"]["cacheRead"] = cache_read;
  if (cache_write > 0) out["tokens"]["cacheWrite"] = cache_write;
  if (cost_usd) out["costUsd"] = *cost_usd;
}

// Adds `step` to `sum`, stopping at the bound instead of wrapping.
void add_tokens(std::int64_t& sum, std::int64_t step) {
  sum = step > limits::kMaxUsageTokens - sum ? limits::kMaxUsageTokens : sum + step;
}

}  // namespace

std::string task_run_status(const store::PlannedTaskRow& task, const store::AttemptRow* latest) {
  if (!latest)
    return is_done(task.status) ? "done" : task.status == TaskStatus::failed ? "failed" : "waiting";
  if ((latest->status == AttemptStatus::failed || latest->status == AttemptStatus::conflicted) &&
      task.status == TaskStatus::pending)
    return "retrying";
  if (latest->status == AttemptStatus::stopped) return "waiting";
  return std::string(name_of(latest->status));
}

void record_reported_tokens(store::Database& db, const std::string& run_id,
                            const std::string& task_id, std::int64_t attempt) {
  store::RunRepository runs(db);
  auto row = runs.attempt(run_id, task_id, attempt);
  auto task = store::TaskRepository(db).find(task_id);
  // Completed during this attempt: a completion by an earlier one is not
  // this agent's (a retried task is pending again, with no completed_at).
  if (!row || !task || !task->metadata || !task->completed_at ||
      *task->completed_at < row->started_at)
    return;
  const nlohmann::json metadata = nlohmann::json::parse(*task->metadata, nullptr, false);
  if (!metadata.is_object()) return;
  auto input = token_count(metadata, "tokens_input");
  auto output = token_count(metadata, "tokens_output");
  if (!input && !output) return;
  store::Transaction transaction(db);
  runs.set_attempt_tokens(run_id, task_id, attempt, input, output);
  transaction.commit();
}

void put_gate(nlohmann::json& out, const store::AttemptRow& attempt) {
  if (!attempt.gate_tree) return;
  nlohmann::json gate = {{"tree", *attempt.gate_tree},
                         {"passed", attempt.gate_passed.value_or(false)}};
  if (attempt.gate_onto) gate["onto"] = *attempt.gate_onto;
  if (attempt.gate_at) gate["at"] = format_utc_iso8601(*attempt.gate_at);
  if (attempt.gate_output) gate["output"] = *attempt.gate_output;
  out["gate"] = std::move(gate);
}

void put_landed(nlohmann::json& out, const store::RunRow& run) {
  if (!run.landed) return;
  nlohmann::json landed = nlohmann::json::parse(*run.landed, nullptr, false);
  if (landed.is_object()) out["landed"] = std::move(landed);
}

void put_refused_writes(nlohmann::json& out, store::Database& db,
                        const store::AttemptRow& attempt) {
  if (!attempt.execution_id) return;
  auto writes = execution::refused_writes_of(db, *attempt.execution_id);
  if (!writes.empty()) out["refusedWrites"] = execution::refused_writes_json(writes);
}

void put_permission_answers(nlohmann::json& out, store::Database& db,
                            const store::AttemptRow& attempt) {
  if (!attempt.execution_id) return;
  nlohmann::json answers = nlohmann::json::array();
  for (const store::ObservationRow& row : store::ObservationRepository(db).of_kind(
           *attempt.execution_id, store::kPermissionAnswerKind, kMaxReportedPermissionAnswers)) {
    nlohmann::json payload = parse_json_or_discarded(row.payload);
    if (!payload.is_object()) continue;
    nlohmann::json answer = {{"question", payload.value("question", "")},
                             {"option", payload.value("option", "")},
                             {"by", payload.value("by", "")}};
    if (payload.contains("rule")) answer["rule"] = payload.value("rule", "");
    answers.push_back(std::move(answer));
  }
  if (!answers.empty()) out["permissionAnswers"] = std::move(answers);
}

nlohmann::json run_summary_json(store::Database& db, const store::RunRow& run,
                                const std::vector<store::PlannedTaskRow>& tasks) {
  store::RunRepository runs(db);
  nlohmann::json options = nlohmann::json::parse(run.options, nullptr, false);
  nlohmann::json out = {{"id", run.id},
                        {"workflowId", run.workflow_id},
                        {"status", run.status},
                        {"repository", run.repository},
                        {"integrationBranch", run.integration_branch},
                        {"baseCommit", run.base_commit},
                        {"createdAt", format_utc_iso8601(run.created_at)},
                        {"durationMs", run.ended_at.value_or(unix_ms_now()) - run.created_at}};
  if (options.is_object()) {
    out["adapter"] = options.value("adapter", "generic");
    if (options.contains("maxAttempts")) out["maxAttempts"] = options["maxAttempts"];
    if (options.contains("base")) out["base"] = options["base"];
    // Each run of the gate judged one tree (a tree is judged once a run).
    if (options.contains("gate")) out["gateRuns"] = runs.gate_runs(run.id);
  }
  out["sandbox"] = sandbox_of(options);
  if (run.reason) out["reason"] = *run.reason;
  if (run.ended_at) out["endedAt"] = format_utc_iso8601(*run.ended_at);
  put_landed(out, run);
  std::map<std::string, store::AttemptRow> latest;
  for (auto& attempt : runs.latest_attempts(run.id))
    latest.emplace(attempt.task_id, std::move(attempt));
  std::map<std::string, std::int64_t> counts;
  for (const auto& task : tasks) {
    auto found = latest.find(task.id);
    counts[task_run_status(task, found == latest.end() ? nullptr : &found->second)] += 1;
  }
  out["taskCount"] = tasks.size();
  out["counts"] = counts;
  const store::RunRepository::Totals totals = runs.totals(run.id);
  out["attemptsTotal"] = totals.attempts;
  put_tokens(out, totals.tokens_input, totals.tokens_output);
  out["tokens"]["attemptsReporting"] = totals.attempts_reporting;
  if (totals.attempts_from_stream > 0)
    out["tokens"]["attemptsFromStream"] = totals.attempts_from_stream;
  put_stream_extras(out, totals.cache_read, totals.cache_write, totals.cost_usd);
  return out;
}

nlohmann::json run_task_json(store::Database& db, const store::PlannedTaskRow& task,
                             const std::vector<store::AttemptRow>& attempts) {
  store::ExecutionRepository executions(db);
  store::WorkspaceRepository workspaces(db);
  store::UsageRepository usages(db);
  nlohmann::json out = {
      {"taskId", task.id},
      {"name", task.name},
      {"status", task_run_status(task, attempts.empty() ? nullptr : &attempts.back())}};
  nlohmann::json list = nlohmann::json::array();
  std::int64_t duration = 0;
  std::int64_t input = 0;
  std::int64_t output = 0;
  std::int64_t cache_read = 0;
  std::int64_t cache_write = 0;
  std::optional<double> cost;
  bool reported = false;
  for (const auto& attempt : attempts) {
    nlohmann::json a = {{"attempt", attempt.attempt}, {"status", attempt.status}};
    if (attempt.execution_id) {
      a["agentExecutionId"] = *attempt.execution_id;
      if (auto execution = executions.find(*attempt.execution_id))
        a["adapter"] = execution->adapter;
    }
    a["startedAt"] = format_utc_iso8601(attempt.started_at);
    a["durationMs"] = duration_of(attempt);
    if (attempt.reason) a["reason"] = *attempt.reason;
    if (attempt.merge_commit) a["mergeCommit"] = *attempt.merge_commit;
    // Where its work was made: `mission workflows diff` shows its patch.
    if (attempt.workspace_id) {
      if (auto workspace = workspaces.find(*attempt.workspace_id)) {
        a["branch"] = workspace->branch;
        if (workspace->base_commit) a["baseCommit"] = *workspace->base_commit;
      }
    }
    if (attempt.scope_warning) a["scopeWarning"] = *attempt.scope_warning;
    // The tail of its --check's output (agent text: shown sanitised).
    if (attempt.check_output) a["checkOutput"] = *attempt.check_output;
    put_gate(a, attempt);
    put_refused_writes(a, db, attempt);
    put_permission_answers(a, db, attempt);
    // Its agent's stream when it stated usage, else what the agent
    // reported; what it reported stays beside the stream's figures.
    const bool agent_reported = attempt.tokens_input || attempt.tokens_output;
    auto stream = attempt.execution_id ? usages.find(*attempt.execution_id) : std::nullopt;
    if (stream) {
      const AgentUsage& usage = stream->usage;
      put_tokens(a, usage.input_tokens.value_or(0), usage.output_tokens.value_or(0));
      a["tokens"]["source"] = stream->source;
      put_stream_extras(a, usage.cache_read_tokens.value_or(0),
                        usage.cache_write_tokens.value_or(0), usage.cost_usd);
      add_tokens(input, usage.input_tokens.value_or(0));
      add_tokens(output, usage.output_tokens.value_or(0));
      add_tokens(cache_read, usage.cache_read_tokens.value_or(0));
      add_tokens(cache_write, usage.cache_write_tokens.value_or(0));
      if (usage.cost_usd)
        cost = std::min(cost.value_or(0) + *usage.cost_usd, limits::kMaxUsageCostUsd);
      if (agent_reported) {
        const std::int64_t in = attempt.tokens_input.value_or(0);
        const std::int64_t out_tokens = attempt.tokens_output.value_or(0);
        a["reportedTokens"] = {{"input", in}, {"output", out_tokens}, {"total", in + out_tokens}};
      }
      reported = true;
    } else if (agent_reported) {
      put_tokens(a, attempt.tokens_input.value_or(0), attempt.tokens_output.value_or(0));
      a["tokens"]["source"] = "reported";
      add_tokens(input, attempt.tokens_input.value_or(0));
      add_tokens(output, attempt.tokens_output.value_or(0));
      reported = true;
    }
    duration += duration_of(attempt);
    list.push_back(std::move(a));
  }
  out["attempts"] = std::move(list);
  out["durationMs"] = duration;
  if (reported) {
    put_tokens(out, input, output);
    put_stream_extras(out, cache_read, cache_write, cost);
  }
  return out;
}

}  // namespace mission::daemon::runs
