#pragma once
// Where the daemon's live events go, as domain code sees it: it builds
// events while it works and they are published only after its transaction
// has committed, so nobody hears of a change that was rolled back.

#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>
#include <vector>

namespace mission::daemon::events {

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Whether anyone listens: building an event costs queries, so callers
  // skip it when nobody would receive it.
  virtual bool has_subscribers() const = 0;
  // Whether something inside the daemon waits for events of `type` (a
  // message_wait, the inbound delivery): those are built even when no
  // connection listens.
  virtual bool has_listener_for(std::string_view /*type*/) const { return false; }
  // `event` carries "type" and may carry "agentExecutionId".
  virtual void publish(nlohmann::json event) = 0;
};

// The events of one unit of work, held until it commits.
class EventBatch {
 public:
  explicit EventBatch(const EventSink& sink) : sink_(&sink), wanted_(sink.has_subscribers()) {}

  // False when nobody listens: skip building the event.
  bool wanted() const { return wanted_; }
  // The same for an event of `type`, which a listener inside the daemon
  // may want when no connection does.
  bool wanted(std::string_view type) const { return wanted_ || sink_->has_listener_for(type); }
  // Adds `event` unless it is null (a builder that found nothing).
  void add(nlohmann::json event) {
    if (event.is_null()) return;
    if (wanted_ || (event.contains("type") && event.at("type").is_string() &&
                    sink_->has_listener_for(event.at("type").get_ref<const std::string&>()))) {
      events_.push_back(std::move(event));
    }
  }
  // After the commit: hands every event to `sink`, in order.
  void publish_to(EventSink& sink) {
    for (auto& event : events_) sink.publish(std::move(event));
    events_.clear();
  }
  // After a rollback: nothing happened.
  void discard() { events_.clear(); }

 private:
  const EventSink* sink_;
  bool wanted_;
  std::vector<nlohmann::json> events_;
};

}  // namespace mission::daemon::events
