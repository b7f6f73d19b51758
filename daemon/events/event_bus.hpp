#pragma once
// The daemon's live event stream: control connections that called
// events.subscribe get each event as a JSON-RPC notification
// {"method":"event","params":{type, at, agentExecutionId, ...}}.
// Publishing costs nothing while nobody listens.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>

#include "daemon/events/event_sink.hpp"
#include "daemon/loop/connection.hpp"

namespace mission::daemon::events {

class EventBus : public EventSink {
 public:
  // `connection` receives every event, or only those of `execution_id`.
  void subscribe(loop::Connection& connection, std::optional<std::string> execution_id);
  void unsubscribe(loop::Connection& connection);

  bool has_subscribers() const override { return !subscribers_.empty(); }
  // Sends `event` to every matching subscriber, stamped with "at". A
  // subscriber that has stopped reading is dropped, not buffered for.
  void publish(nlohmann::json event) override;

 private:
  std::unordered_map<loop::Connection*, std::optional<std::string>> subscribers_;
};

}  // namespace mission::daemon::events
