#pragma once
// Control-API method usage.list: the tokens and cost of agent executions
// (`mission usage`), from their streams or what their agents reported.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct UsageListRequest {
  std::optional<std::string> workflow_id;
  std::optional<std::int64_t> within_ms;
};
void from_json(const nlohmann::json& j, UsageListRequest& request);

// {rows, total, truncated}: each row a workflow's or an execution's sums
// (executions, fromStream, fromReports, tokens, costUsd, lastAt); at most
// limits::kMaxPageItems rows, newest first. Throws not_found for a
// workflow that does not exist.
nlohmann::json handle_usage_list(MethodContext& context, const UsageListRequest& request);

}  // namespace mission::daemon
