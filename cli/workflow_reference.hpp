#pragma once
// A workflow or a task as a person names it on the command line: an id, a
// unique prefix of one, its name, or (a workflow) @last, as executions are
// named (cli/execution_reference.hpp). Every command that takes WF or TASK
// resolves it here, so each takes the same words and says the same when a
// word names nothing.

#include <optional>
#include <string>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// What a WF argument takes, in every command's --help.
inline constexpr const char* kWorkflowArgumentHelp = "Workflow: id, unique prefix, name or @last";
// And a MISSION argument, which takes missions agents recorded too.
inline constexpr const char* kMissionArgumentHelp =
    "Mission or workflow: id, unique prefix, name or @last";

// The id of the planned workflow `reference` names, from workflow.resolve:
// not_found (with a did-you-mean when a name is near) or ambiguous_target
// (with the ids that match) otherwise.
std::string resolve_workflow(DaemonClient& client, const std::string& reference);

// The same for commands that take a mission or a workflow (report, tasks,
// context, missions show).
std::string resolve_mission_or_workflow(DaemonClient& client, const std::string& reference);

struct TaskReference {
  std::string task_id;
  std::string workflow_id;
};

// The task `reference` names, within `workflow_id` when it is given (else
// a name must be unique across workflows), from task.resolve.
TaskReference resolve_task(DaemonClient& client, const std::string& reference,
                           const std::optional<std::string>& workflow_id = std::nullopt);

}  // namespace mission::cli
