#pragma once
// events.subscribe: the live event stream behind `mission watch` and
// `mission exec show --follow`.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct EventsSubscribeRequest {
  std::optional<std::string> execution_id;
};
void from_json(const nlohmann::json& j, EventsSubscribeRequest& request);

nlohmann::json handle_events_subscribe(MethodContext& context,
                                       const EventsSubscribeRequest& request);

}  // namespace mission::daemon
