#include "cli/workflow_reference.hpp"

namespace mission::cli {

std::string resolve_workflow(DaemonClient& client, const std::string& reference) {
  return client.call("workflow.resolve", {{"reference", reference}}).at("id").get<std::string>();
}

std::string resolve_mission_or_workflow(DaemonClient& client, const std::string& reference) {
  return client.call("workflow.resolve", {{"reference", reference}, {"missions", true}})
      .at("id")
      .get<std::string>();
}

TaskReference resolve_task(DaemonClient& client, const std::string& reference,
                           const std::optional<std::string>& workflow_id) {
  nlohmann::json params = {{"reference", reference}};
  if (workflow_id) params["workflow"] = *workflow_id;
  const nlohmann::json found = client.call("task.resolve", params);
  return {found.at("taskId").get<std::string>(), found.at("workflowId").get<std::string>()};
}

}  // namespace mission::cli
