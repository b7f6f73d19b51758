#pragma once
// The daemon's live event stream: control connections that called
// events.subscribe get each event as a JSON-RPC notification
// {"method":"event","params":{type, at, agentExecutionId, ...}}.
// Publishing costs nothing while nobody listens.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/loop/connection.hpp"

namespace mission::daemon::events {

// Something inside the daemon that reacts to committed events of one type
// (ADR 17: a message_wait, the inbound delivery to a launched agent).
// Called on the loop, after the commit, inside publish: it may write to the
// store in its own transaction and publish again.
class EventListener {
 public:
  virtual ~EventListener() = default;
  virtual std::string_view listens_to() const = 0;
  virtual void on_event(const nlohmann::json& event) = 0;
};

// Something beyond the control API that follows every committed event
// (the board's pages, over server-sent events).
class EventWatcher {
 public:
  virtual ~EventWatcher() = default;
  // The event stamped with "at", as one line of compact JSON. It may
  // unwatch itself, or others, while it runs.
  virtual void on_event(const std::string& json) = 0;
};

class EventBus : public EventSink {
 public:
  // `listener` hears every event of its type until removed; it must remove
  // itself before it is destroyed.
  void add_listener(EventListener& listener);
  void remove_listener(EventListener& listener);
  bool has_listener_for(std::string_view type) const override;

  // `connection` receives every event, or only those of `execution_id`.
  void subscribe(loop::Connection& connection, std::optional<std::string> execution_id);
  void unsubscribe(loop::Connection& connection);

  // `watcher` hears every event until it unwatches; it must before it is
  // destroyed.
  void watch(EventWatcher& watcher);
  void unwatch(EventWatcher& watcher);

  bool has_subscribers() const override { return !subscribers_.empty() || !watchers_.empty(); }
  // Sends `event` to every matching subscriber, stamped with "at". A
  // subscriber that has stopped reading is dropped, not buffered for.
  void publish(nlohmann::json event) override;

 private:
  std::unordered_map<loop::Connection*, std::optional<std::string>> subscribers_;
  std::vector<EventListener*> listeners_;
  std::vector<EventWatcher*> watchers_;
};

}  // namespace mission::daemon::events
