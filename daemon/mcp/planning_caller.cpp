#include "daemon/mcp/planning_caller.hpp"

#include "daemon/tracking/tracking_events.hpp"

namespace mission::daemon::mcp {

planning::Caller planning_caller(ToolContext& context) {
  return {
      context.db,
      context.execution_id,
      [&context](std::string_view kind, std::string_view change, const std::string& id) {
        if (kind == "mission") {
          tracking::add_mission_event(context.events, context.db, change, id, context.execution_id);
        } else {
          tracking::add_task_event(context.events, context.db, change, id, context.execution_id);
        }
      },
      context.plans,
      {}};
}

}  // namespace mission::daemon::mcp
