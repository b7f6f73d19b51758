#include "daemon/events/event_bus.hpp"

#include <algorithm>
#include <cstdio>

#include "shared/clock.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::events {

void EventBus::subscribe(loop::Connection& connection, std::optional<std::string> execution_id) {
  subscribers_[&connection] = std::move(execution_id);
}

void EventBus::unsubscribe(loop::Connection& connection) {
  subscribers_.erase(&connection);
}

void EventBus::watch(EventWatcher& watcher) {
  watchers_.push_back(&watcher);
}

void EventBus::unwatch(EventWatcher& watcher) {
  std::erase(watchers_, &watcher);
}

void EventBus::add_listener(EventListener& listener) {
  listeners_.push_back(&listener);
}

void EventBus::remove_listener(EventListener& listener) {
  std::erase(listeners_, &listener);
}

bool EventBus::has_listener_for(std::string_view type) const {
  for (const EventListener* listener : listeners_) {
    if (listener->listens_to() == type) return true;
  }
  return false;
}

void EventBus::publish(nlohmann::json event) {
  if (!listeners_.empty()) {
    const std::string type = event.value("type", "");
    // A listener may remove itself, or others, while it runs.
    const std::vector<EventListener*> listening = listeners_;
    for (EventListener* listener : listening) {
      if (listener->listens_to() != type) continue;
      if (std::find(listeners_.begin(), listeners_.end(), listener) == listeners_.end()) continue;
      try {
        listener->on_event(event);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "missiond: a listener of %s failed: %s\n", type.c_str(), e.what());
      }
    }
  }
  if (subscribers_.empty() && watchers_.empty()) return;
  event["at"] = format_utc_iso8601(unix_ms_now());
  if (!watchers_.empty()) {
    const std::string json = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::vector<EventWatcher*> watching = watchers_;
    for (EventWatcher* watcher : watching) {
      if (std::find(watchers_.begin(), watchers_.end(), watcher) == watchers_.end()) continue;
      watcher->on_event(json);
    }
  }
  if (subscribers_.empty()) return;
  const std::string execution_id = event.value("agentExecutionId", "");
  const std::string line = jsonrpc::to_line(jsonrpc::notification("event", std::move(event)));
  for (const auto& [connection, filter] : subscribers_) {
    if (filter && *filter != execution_id) continue;
    // A watcher that stops reading is dropped rather than buffered for.
    if (connection->queued_bytes() > limits::kMaxQueuedWriteBytes) {
      connection->abort();  // its close handler unsubscribes it
      continue;
    }
    connection->write(line);
  }
}

}  // namespace mission::daemon::events
