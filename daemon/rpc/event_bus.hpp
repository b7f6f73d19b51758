#pragma once
// The daemon's live event stream: control connections that called
// events.subscribe get each event as a JSON-RPC notification
// {"method":"event","params":{type, at, agentExecutionId, ...}}.
// Publishing costs nothing while nobody listens.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>

#include "daemon/loop/connection.hpp"

namespace mission::daemon {

class EventBus {
 public:
  // `connection` receives every event, or only those of `execution_id`.
  void subscribe(loop::Connection& connection, std::optional<std::string> execution_id);
  void unsubscribe(loop::Connection& connection);
  bool has_subscribers() const { return !subscribers_.empty(); }

  // Sends `event` (which must carry "type" and may carry
  // "agentExecutionId") to every matching subscriber.
  void publish(nlohmann::json event);

 private:
  std::unordered_map<loop::Connection*, std::optional<std::string>> subscribers_;
};

}  // namespace mission::daemon
