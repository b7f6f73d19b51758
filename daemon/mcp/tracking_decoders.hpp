#pragma once
// Decoding of the tracking tools' validated arguments (snake_case, as the
// seeds name them) into their typed requests. Declared in the requests'
// namespace so nlohmann's get<Request>() finds them.

#include <nlohmann/json.hpp>

#include "daemon/tracking/requests.hpp"

namespace mission::daemon::tracking {

void from_json(const nlohmann::json& j, StartMissionRequest& request);
void from_json(const nlohmann::json& j, StartWorkflowRequest& request);
void from_json(const nlohmann::json& j, CompleteMissionRequest& request);
void from_json(const nlohmann::json& j, StartTaskRequest& request);
void from_json(const nlohmann::json& j, CompleteTaskRequest& request);
void from_json(const nlohmann::json& j, LogDecisionRequest& request);
void from_json(const nlohmann::json& j, LogIssueRequest& request);
void from_json(const nlohmann::json& j, LogMilestoneRequest& request);
void from_json(const nlohmann::json& j, GetContextRequest& request);
void from_json(const nlohmann::json& j, TaskChangesRequest& request);

// The names get_context's `include` takes, e.g. "phase_summary".
ContextList context_list_named(const std::string& name);

// An ISO 8601 time for a filter, or invalid_argument naming `field`.
std::int64_t parse_time_field(const std::string& text, const char* field);

// A decimal position from a cursor string, or invalid_argument naming `field`.
std::int64_t parse_position(const std::string& text, const char* field);

}  // namespace mission::daemon::tracking
