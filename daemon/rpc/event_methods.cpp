#include "daemon/rpc/event_methods.hpp"

#include "daemon/execution/execution_registry.hpp"
#include "daemon/rpc/control_session.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, EventsSubscribeRequest& request) {
  if (j.contains("agentExecutionId")) {
    request.execution_id = j.at("agentExecutionId").get<std::string>();
  }
}

nlohmann::json handle_events_subscribe(MethodContext& context,
                                       const EventsSubscribeRequest& request) {
  if (request.execution_id) {
    execution::AgentExecutionRegistry(context.services.db).require(*request.execution_id);
  }
  context.services.events.subscribe(context.session().connection(), request.execution_id);
  nlohmann::json result = {{"subscribed", true}};
  if (request.execution_id) result["agentExecutionId"] = *request.execution_id;
  return result;
}

}  // namespace mission::daemon
