// The one table of control-API methods. A method exists when it is listed
// here with its params schema; the dispatcher validates before any handler.

#include "daemon/rpc/adapter_methods.hpp"
#include "daemon/rpc/daemon_methods.hpp"
#include "daemon/rpc/dispatcher.hpp"
#include "daemon/rpc/event_methods.hpp"
#include "daemon/rpc/execution_methods.hpp"
#include "daemon/rpc/execution_run_methods.hpp"
#include "daemon/rpc/mcp_methods.hpp"
#include "daemon/rpc/mission_methods.hpp"

namespace mission::daemon {

std::span<const MethodEntry> control_methods() {
  static const MethodEntry kMethods[] = {
      {"hello", "control/hello.params", true, typed<HelloRequest, handle_hello>},
      {"daemon.status", "control/empty.params", false,
       typed<EmptyRequest, handle_daemon_status>},
      {"daemon.stop", "control/empty.params", false, typed<EmptyRequest, handle_daemon_stop>},
      {"adapter.list", "control/empty.params", false, typed<EmptyRequest, handle_adapter_list>},
      {"adapter.config", "control/adapter.config.params", false,
       typed<AdapterConfigRequest, handle_adapter_config>},
      {"execution.create", "control/execution.create.params", false,
       typed<ExecutionCreateRequest, handle_execution_create>},
      {"execution.list", "control/execution.list.params", false,
       typed<ExecutionListRequest, handle_execution_list>},
      {"execution.get", "control/execution.get.params", false,
       typed<ExecutionIdRequest, handle_execution_get>},
      {"execution.launch", "control/execution.launch.params", false,
       typed<ExecutionLaunchRequest, handle_execution_launch>},
      {"execution.stop", "control/execution.stop.params", false,
       typed<ExecutionStopRequest, handle_execution_stop>},
      {"execution.logs", "control/execution.logs.params", false,
       typed<ExecutionLogsRequest, handle_execution_logs>},
      {"execution.observations", "control/execution.observations.params", false,
       typed<ExecutionObservationsRequest, handle_execution_observations>},
      {"execution.instructions", "control/execution.instructions.params", false,
       typed<ExecutionIdRequest, handle_execution_instructions>},
      {"events.subscribe", "control/events.subscribe.params", false,
       typed<EventsSubscribeRequest, handle_events_subscribe>},
      {"mcp.attach", "control/mcp.attach.params", false, typed<McpAttachRequest, handle_mcp_attach>},
      {"mission.list", "control/mission.list.params", false,
       typed<MissionListRequest, handle_mission_list>},
      {"mission.get", "control/mission.get.params", false,
       typed<MissionIdRequest, handle_mission_get>},
      // The same arguments and schema as the get_context tool.
      {"mission.context", "tools/get_context.input", false, handle_mission_context},
      {"mission.check", "control/mission.check.params", false,
       typed<MissionCheckRequest, handle_mission_check>},
      {"issue.resolve", "control/issue.resolve.params", false,
       typed<IssueResolveRequest, handle_issue_resolve>},
  };
  return kMethods;
}

}  // namespace mission::daemon
