#pragma once
// GET /events for the board: every committed event of the daemon's event
// bus, as server-sent events, to each signed-in page that follows them (no
// polling). A page that stops reading is dropped, not buffered for.

#include <memory>
#include <vector>

#include "daemon/events/event_bus.hpp"
#include "daemon/http/http_connection.hpp"

namespace mission::daemon::http {

class BoardEvents : public events::EventWatcher {
 public:
  explicit BoardEvents(events::EventBus& bus) : bus_(bus) {}
  ~BoardEvents() override;
  BoardEvents(const BoardEvents&) = delete;
  BoardEvents& operator=(const BoardEvents&) = delete;

  // Starts the stream on `exchange`, or answers 503 past
  // kMaxBoardEventStreams.
  void follow(const std::shared_ptr<HttpExchange>& exchange);
  // Ends every stream (the listener stops).
  void end_all();

  void on_event(const std::string& json) override;
  std::size_t stream_count() const { return streams_.size(); }

 private:
  void forget(const HttpExchange* exchange);

  events::EventBus& bus_;
  std::vector<std::shared_ptr<HttpExchange>> streams_;
};

}  // namespace mission::daemon::http
