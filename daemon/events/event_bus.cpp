#include "daemon/events/event_bus.hpp"

#include "shared/clock.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::events {

void EventBus::subscribe(loop::Connection& connection, std::optional<std::string> execution_id) {
  subscribers_[&connection] = std::move(execution_id);
}

void EventBus::unsubscribe(loop::Connection& connection) { subscribers_.erase(&connection); }

void EventBus::publish(nlohmann::json event) {
  if (subscribers_.empty()) return;
  event["at"] = format_utc_iso8601(unix_ms_now());
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
