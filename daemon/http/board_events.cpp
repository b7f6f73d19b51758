#include "daemon/http/board_events.hpp"

#include <algorithm>

#include "daemon/http/board_limits.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::http {

BoardEvents::~BoardEvents() {
  end_all();
}

void BoardEvents::follow(const std::shared_ptr<HttpExchange>& exchange) {
  if (streams_.size() >= board_limits::kMaxBoardEventStreams) {
    const MissionError error(ErrorCode::daemon_unavailable,
                             std::to_string(streams_.size()) + " pages follow the events already",
                             "close a board tab, or reload once another has closed");
    exchange->respond(503, {{"Content-Type", "application/json"}},
                      nlohmann::json({{"error", error.to_payload()}}).dump());
    return;
  }
  if (streams_.empty()) bus_.watch(*this);
  streams_.push_back(exchange);
  const HttpExchange* key = exchange.get();
  exchange->on_gone = [this, key] { forget(key); };
  exchange->start_events({{"X-Accel-Buffering", "no"}});
  // Tells the page it is connected, so it can read the state it missed.
  exchange->send_event(R"({"type":"board.connected"})");
}

void BoardEvents::forget(const HttpExchange* exchange) {
  std::erase_if(streams_, [exchange](const auto& stream) { return stream.get() == exchange; });
  if (streams_.empty()) bus_.unwatch(*this);
}

void BoardEvents::on_event(const std::string& json) {
  // A page may go while the events are sent.
  const std::vector<std::shared_ptr<HttpExchange>> streams = streams_;
  for (const auto& stream : streams) {
    if (stream->queued_bytes() > limits::kMaxQueuedWriteBytes) {
      stream->abort();  // its on_gone forgets it
      continue;
    }
    stream->send_event(json);
  }
}

void BoardEvents::end_all() {
  const std::vector<std::shared_ptr<HttpExchange>> streams = std::move(streams_);
  streams_.clear();
  for (const auto& stream : streams) {
    stream->on_gone = nullptr;
    stream->end();
  }
  bus_.unwatch(*this);
}

}  // namespace mission::daemon::http
