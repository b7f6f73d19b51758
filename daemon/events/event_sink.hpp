#pragma once
// Where the daemon's live events go, as domain code sees it: it builds
// events while it works and they are published only after its transaction
// has committed, so nobody hears of a change that was rolled back.

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace mission::daemon::events {

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Whether anyone listens: building an event costs queries, so callers
  // skip it when nobody would receive it.
  virtual bool has_subscribers() const = 0;
  // `event` carries "type" and may carry "agentExecutionId".
  virtual void publish(nlohmann::json event) = 0;
};

// The events of one unit of work, held until it commits.
class EventBatch {
 public:
  explicit EventBatch(const EventSink& sink) : wanted_(sink.has_subscribers()) {}

  // False when nobody listens: skip building the event.
  bool wanted() const { return wanted_; }
  // Adds `event` unless it is null (a builder that found nothing).
  void add(nlohmann::json event) {
    if (wanted_ && !event.is_null()) events_.push_back(std::move(event));
  }
  // After the commit: hands every event to `sink`, in order.
  void publish_to(EventSink& sink) {
    for (auto& event : events_) sink.publish(std::move(event));
    events_.clear();
  }
  // After a rollback: nothing happened.
  void discard() { events_.clear(); }

 private:
  bool wanted_;
  std::vector<nlohmann::json> events_;
};

}  // namespace mission::daemon::events
