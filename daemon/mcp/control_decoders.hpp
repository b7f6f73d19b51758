#pragma once
// The control toolset's typed requests (docs/adr/0025) and the decoding of
// their validated arguments. start_task_attempt decodes into the runs
// module's own request; create_task into planning's TaskAddRequest
// (planning_decoders.hpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/runs/attempt_control.hpp"
#include "daemon/store/page.hpp"

namespace mission::daemon::mcp::control {

struct ListExecutorsRequest {};

struct ListTasksRequest {
  std::string workflow_id;
  std::vector<std::string> statuses;  // seed 003's words; empty: all
  store::PageRequest page;            // positions: plan order, from 1
};

struct TaskIdRequest {
  std::string task_id;
};

struct AttemptIdRequest {
  std::string attempt_id;
};

struct TailLogsRequest {
  std::string attempt_id;
  std::optional<std::uint64_t> cursor;             // lines before this one (older)
  std::optional<std::uint64_t> after_entry_index;  // lines after this one (newer)
  std::size_t limit = 0;
};

struct AttemptPatchRequest {
  std::string attempt_id;
  std::vector<std::string> paths;  // empty: every changed file
  std::size_t max_bytes = 0;
};

struct FollowUpRequest {
  std::string attempt_id;
  runs::FollowUpMode mode = runs::FollowUpMode::send;
  std::optional<std::string> prompt;
};

struct StopAttemptRequest {
  std::string attempt_id;
  bool force = false;
};

void from_json(const nlohmann::json& j, ListExecutorsRequest& request);
void from_json(const nlohmann::json& j, ListTasksRequest& request);
void from_json(const nlohmann::json& j, TaskIdRequest& request);
void from_json(const nlohmann::json& j, AttemptIdRequest& request);
void from_json(const nlohmann::json& j, TailLogsRequest& request);
void from_json(const nlohmann::json& j, AttemptPatchRequest& request);
void from_json(const nlohmann::json& j, FollowUpRequest& request);
void from_json(const nlohmann::json& j, StopAttemptRequest& request);

}  // namespace mission::daemon::mcp::control

namespace mission::daemon::runs {

void from_json(const nlohmann::json& j, AttemptStartRequest& request);

}  // namespace mission::daemon::runs
