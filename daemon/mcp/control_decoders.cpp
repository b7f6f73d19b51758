#include "daemon/mcp/control_decoders.hpp"

#include <algorithm>

#include "daemon/mcp/tracking_decoders.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::mcp::control {
namespace {

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

}  // namespace

void from_json(const nlohmann::json&, ListExecutorsRequest&) {}

void from_json(const nlohmann::json& j, ListTasksRequest& request) {
  request.workflow_id = j.at("workflow_id").get<std::string>();
  if (j.contains("status")) request.statuses = j.at("status").get<std::vector<std::string>>();
  if (j.contains("cursor") && j.contains("after_cursor")) {
    throw MissionError(
        ErrorCode::mixed_pagination, "cursor and after_cursor were both given",
        "pass cursor (next_cursor of an answer) for earlier tasks, or after_cursor for later ones");
  }
  if (auto cursor = text(j, "cursor"))
    request.page.cursor = tracking::parse_position(*cursor, "cursor");
  if (auto after = text(j, "after_cursor"))
    request.page.after = tracking::parse_position(*after, "after_cursor");
  request.page.limit =
      std::clamp<std::size_t>(j.value("limit", std::size_t{50}), 1, limits::kMaxPageItems);
}

void from_json(const nlohmann::json& j, TaskIdRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
}

void from_json(const nlohmann::json& j, AttemptIdRequest& request) {
  request.attempt_id = j.at("attempt_id").get<std::string>();
}

void from_json(const nlohmann::json& j, TailLogsRequest& request) {
  request.attempt_id = j.at("attempt_id").get<std::string>();
  if (j.contains("cursor") && j.contains("after_entry_index")) {
    throw MissionError(
        ErrorCode::mixed_pagination, "cursor and after_entry_index were both given",
        "pass cursor (next_cursor of an answer) for older lines, or after_entry_index (the "
        "last_entry_index you saw) for new ones");
  }
  if (j.contains("cursor")) request.cursor = j.at("cursor").get<std::uint64_t>();
  if (j.contains("after_entry_index"))
    request.after_entry_index = j.at("after_entry_index").get<std::uint64_t>();
  request.limit = std::clamp<std::size_t>(j.value("limit", limits::kDefaultAttemptLogLines), 1,
                                          limits::kMaxAttemptLogLines);
}

void from_json(const nlohmann::json& j, AttemptPatchRequest& request) {
  request.attempt_id = j.at("attempt_id").get<std::string>();
  if (j.contains("paths")) request.paths = j.at("paths").get<std::vector<std::string>>();
  request.max_bytes = std::clamp<std::size_t>(
      j.value("max_bytes", limits::kDefaultAttemptPatchBytes), 1, limits::kMaxAttemptPatchBytes);
}

void from_json(const nlohmann::json& j, FollowUpRequest& request) {
  request.attempt_id = j.at("attempt_id").get<std::string>();
  const std::string mode = j.at("mode").get<std::string>();
  request.mode = mode == "cancel"  ? runs::FollowUpMode::cancel
                 : mode == "queue" ? runs::FollowUpMode::queue
                                   : runs::FollowUpMode::send;
  request.prompt = text(j, "prompt");
  // The schema's branches say so too; this names the field for clients
  // that do not read them.
  if (request.mode != runs::FollowUpMode::cancel && !request.prompt) {
    throw MissionError(ErrorCode::invalid_argument, "mode " + mode + " needs a prompt",
                       "say what the agent should do next in prompt", {{"field", "prompt"}});
  }
}

void from_json(const nlohmann::json& j, StopAttemptRequest& request) {
  request.attempt_id = j.at("attempt_id").get<std::string>();
  request.force = j.value("force", false);
}

}  // namespace mission::daemon::mcp::control

namespace mission::daemon::runs {

void from_json(const nlohmann::json& j, AttemptStartRequest& request) {
  request.task_id = j.at("task_id").get<std::string>();
  request.executor = j.at("executor").get<std::string>();
  if (j.contains("args")) request.args = j.at("args").get<std::vector<std::string>>();
  if (j.contains("prompt")) request.prompt = j.at("prompt").get<std::string>();
  if (j.contains("base_branch")) request.base_branch = j.at("base_branch").get<std::string>();
}

}  // namespace mission::daemon::runs
