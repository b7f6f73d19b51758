#pragma once
// What `mission report` and `mission workflows status` read of a run
// (docs/adr/0026): each task's status in the run, its attempts with their
// agent, time, failure and tokens, and the run's totals. An attempt's
// tokens, cache tokens and cost come from its agent's own stream when it
// stated them (execution_usage, source "stream"), else from complete_task's
// metadata (tokens_input, tokens_output, the names of the seed protocol),
// recorded on the attempt when its agent's process ends (source
// "reported"); an attempt with both keeps the reported ones beside them.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/run_repository.hpp"

namespace mission::daemon::runs {

// The task's status in the run: the status of its newest attempt `latest`, with
// "retrying" for a failed one it goes on from and "waiting" for a stopped
// one; without attempts, "done" (done before the run), "failed" or
// "waiting" (its prerequisites did not merge, or its turn has not come).
std::string task_run_status(const store::PlannedTaskRow& task, const store::AttemptRow* latest);

// Records on the attempt the tokens its agent reported when it completed
// the task during the attempt (nothing when it did not).
void record_reported_tokens(store::Database& db, const std::string& run_id,
                            const std::string& task_id, std::int64_t attempt);

// Adds `landed` ({into, commit, how, at}) to a run's JSON when a person
// landed it.
void put_landed(nlohmann::json& out, const store::RunRow& run);

// The attempt's --gate verdict on its merged tree as "gate": {tree, onto,
// passed, at, output}, when it was gated.
void put_gate(nlohmann::json& out, const store::AttemptRow& attempt);

// The writes the attempt's agent was refused by its sandbox, read from its
// output, as "refusedWrites": [{path, operation, from}] (docs/adr/0036);
// nothing when there were none.
void put_refused_writes(nlohmann::json& out, store::Database& db, const store::AttemptRow& attempt);

// Most permission answers listed per attempt in a report: a policy may
// answer many requests of one agent; exec signals lists them all.
inline constexpr std::size_t kMaxReportedPermissionAnswers = 50;

// The attempt's answered permission requests as "permissionAnswers":
// [{question, option, by, rule?}] (by a person's name, or "policy" with the
// rule that matched; docs/adr/0053), when it has any.
void put_permission_answers(nlohmann::json& out, store::Database& db,
                            const store::AttemptRow& attempt);

// The run without its tasks: status, reason, times, adapter, the count of
// tasks by status and the totals of attempts and tokens (camelCase).
nlohmann::json run_summary_json(store::Database& db, const store::RunRow& run,
                                const std::vector<store::PlannedTaskRow>& tasks);

// One task of the run with every attempt: number, status, agent execution
// and adapter, duration, reason, merge commit, tokens; and the task's
// duration and tokens added up.
nlohmann::json run_task_json(store::Database& db, const store::PlannedTaskRow& task,
                             const std::vector<store::AttemptRow>& attempts);

}  // namespace mission::daemon::runs
