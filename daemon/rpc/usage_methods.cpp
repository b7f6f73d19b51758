#include "daemon/rpc/usage_methods.hpp"

#include "daemon/store/mission_repository.hpp"
#include "daemon/store/usage_repository.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon {
namespace {

nlohmann::json sum_json(const store::UsageSum& sum) {
  nlohmann::json tokens = nlohmann::json::object();
  const AgentUsage& usage = sum.usage;
  if (usage.input_tokens) tokens["input"] = *usage.input_tokens;
  if (usage.output_tokens) tokens["output"] = *usage.output_tokens;
  if (usage.cache_read_tokens) tokens["cacheRead"] = *usage.cache_read_tokens;
  if (usage.cache_write_tokens) tokens["cacheWrite"] = *usage.cache_write_tokens;
  nlohmann::json out = {{"executions", sum.executions},
                        {"fromStream", sum.from_stream},
                        {"fromReports", sum.from_reports},
                        {"tokens", std::move(tokens)}};
  if (usage.cost_usd) out["costUsd"] = *usage.cost_usd;
  if (sum.executions > 0) out["lastAt"] = format_utc_iso8601(sum.last_at);
  return out;
}

}  // namespace

void from_json(const nlohmann::json& j, UsageListRequest& request) {
  if (j.contains("workflowId")) request.workflow_id = j.at("workflowId").get<std::string>();
  if (j.contains("withinMs")) request.within_ms = j.at("withinMs").get<std::int64_t>();
}

nlohmann::json handle_usage_list(MethodContext& context, const UsageListRequest& request) {
  store::Database& db = context.services.db;
  if (request.workflow_id && !store::MissionRepository(db).find(*request.workflow_id)) {
    throw MissionError(ErrorCode::not_found, "workflow " + *request.workflow_id + " does not exist",
                       "mission workflows list shows the workflows",
                       {{"workflow_id", *request.workflow_id}});
  }
  const std::int64_t now = unix_ms_now();
  const std::int64_t since =
      request.within_ms && *request.within_ms < now ? now - *request.within_ms : 0;
  store::UsageRepository usage(db);
  // One more than shown says whether there were more.
  const std::size_t limit = limits::kMaxPageItems;
  std::vector<store::UsageGroup> groups =
      request.workflow_id ? usage.of_workflow(*request.workflow_id, since, limit + 1)
                          : usage.by_workflow(since, limit + 1);
  const bool truncated = groups.size() > limit;
  if (truncated) groups.resize(limit);
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& group : groups) {
    nlohmann::json row = sum_json(group.sum);
    row["kind"] = group.workflow ? "workflow" : "execution";
    row["id"] = group.id;
    if (!group.name.empty()) row["name"] = group.name;
    if (!group.adapter.empty()) row["adapter"] = group.adapter;
    if (!group.task_name.empty()) row["task"] = group.task_name;
    if (group.attempt > 0) row["attempt"] = group.attempt;
    rows.push_back(std::move(row));
  }
  nlohmann::json out = {{"rows", std::move(rows)},
                        {"total", sum_json(usage.total(since, request.workflow_id))},
                        {"truncated", truncated}};
  if (request.workflow_id) out["workflowId"] = *request.workflow_id;
  if (request.within_ms) out["withinMs"] = *request.within_ms;
  return out;
}

}  // namespace mission::daemon
