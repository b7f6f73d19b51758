#include "daemon/rpc/control_session.hpp"

#include <utility>

#include "daemon/rpc/deferred_reply.hpp"
#include "daemon/rpc/dispatcher.hpp"
#include "shared/bounded_json.hpp"
#include "shared/fault_points.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

ControlSession::ControlSession(ControlServices& services, loop::Connection& connection,
                               int hello_timeout_ms)
    : services_(services),
      connection_(connection),
      framer_(limits::kMaxHelloFrameBytes),
      hello_timer_(
          services.mcp.loop,
          [this, hello_timeout_ms] {
            if (greeted_ || connection_.closing()) return;
            connection_.write(jsonrpc::to_line(jsonrpc::error(
                nullptr, MissionError(ErrorCode::handshake_required,
                                      "no hello within " + std::to_string(hello_timeout_ms) + " ms",
                                      "send hello as the first request when connecting"))));
            connection_.close();
          }),
      resume_(services.mcp.loop, [this] {
        turn_loop_ms_ = UINT64_MAX;  // a new turn: a fresh share
        pump();
      }) {
  hello_timer_.start(hello_timeout_ms);
}

void ControlSession::greet(ClientInfo client) {
  greeted_ = true;
  client_ = std::move(client);
  hello_timer_.stop();
  framer_.set_max_frame_bytes(limits::kMaxFrameBytes);
}

void ControlSession::become_terminal(std::unique_ptr<terminal::Viewer> viewer,
                                     std::function<void(std::string_view)> on_bytes) {
  viewer_ = std::move(viewer);
  viewer_bytes_ = std::move(on_bytes);
}

void ControlSession::on_data(loop::Connection&, std::string_view bytes) {
  if (viewer_) {
    viewer_bytes_(bytes);
    return;
  }
  for (Frame& frame : framer_.feed(bytes)) pending_.push_back(std::move(frame));
  pump();
}

void ControlSession::on_writable(loop::Connection&) {
  if (!pending_.empty()) pump();
}

void ControlSession::pump() {
  // A reply written from inside handle_frame may call back here.
  if (pumping_) return;
  pumping_ = true;
  // Check the queue before each frame, not once per read: a client that
  // pipelines requests without reading the replies gets no more than the
  // write queue's limit (plus one reply) buffered for it.
  // uv_now is the loop's time, taken once per turn.
  const std::uint64_t loop_ms = uv_now(services_.mcp.loop);
  if (loop_ms != turn_loop_ms_) {
    turn_loop_ms_ = loop_ms;
    turn_frames_ = 0;
    turn_ns_ = 0;
  }
  while (!pending_.empty() && !connection_.closing() &&
         connection_.queued_bytes() < limits::kMaxQueuedWriteBytes) {
    if (turn_frames_ >= limits::kMaxFramesPerTurn || turn_ns_ >= limits::kMaxHandlingNsPerTurn) {
      // Other connections' requests are served before the rest of these.
      resume_.schedule();
      break;
    }
    Frame frame = std::move(pending_.front());
    pending_.pop_front();
    const std::uint64_t started = uv_hrtime();
    handle_frame(frame);
    ++turn_frames_;
    turn_ns_ += uv_hrtime() - started;
    // The client sends no frames before the attach reply, so nothing after
    // it belongs to the line protocol.
    if (viewer_) pending_.clear();
  }
  pumping_ = false;
  if (connection_.closing()) {
    pending_.clear();
    return;
  }
  connection_.hold_reading(!pending_.empty());
}

void ControlSession::on_eof(loop::Connection& connection) {
  if (mcp_) {
    mcp_->on_client_done();
  } else {
    connection.close();
  }
}

void ControlSession::become_mcp(std::unique_ptr<mcp::McpSession> session) {
  if (!mcp_ && services_.agent_sessions != nullptr) ++services_.agent_sessions->open;
  mcp_ = std::move(session);
}

void ControlSession::on_closed(loop::Connection& connection) {
  services_.events.unsubscribe(connection);
  viewer_.reset();  // detaches from the terminal
  if (mcp_) {
    if (services_.agent_sessions != nullptr) --services_.agent_sessions->open;
    mcp_->on_closed();
  }
}

void ControlSession::reply_later(nlohmann::json id, DeferredReply deferred, bool reply) {
  std::weak_ptr<int> alive = alive_;
  answer_later(services_, std::move(id), std::move(deferred),
               [this, alive, reply](std::string line) {
                 if (!reply || alive.expired() || connection_.closing()) return;
                 connection_.write(line);
               });
}

void ControlSession::handle_frame(const Frame& frame) {
  if (mcp_) {
    mcp_->handle_frame(frame);
    return;
  }
  if (frame.kind == Frame::Kind::oversized) {
    // The id, when the frame's first or last bytes give it.
    connection_.write(jsonrpc::to_line(jsonrpc::error(
        jsonrpc::recover_request(frame.head, frame.tail).id,
        MissionError(ErrorCode::payload_too_large,
                     "frame exceeds " + std::to_string(framer_.max_frame_bytes()) + " bytes",
                     greeted_ ? "send smaller requests; large content belongs in files"
                              : "send hello first: before it frames are smaller",
                     {{"limit", framer_.max_frame_bytes()}}))));
    return;
  }
  if (json_too_deep(frame.text)) {
    // Refused before the recursive parser sees it: its nesting could
    // exhaust the stack.
    connection_.write(jsonrpc::to_line(jsonrpc::error(nullptr, json_too_deep_error())));
    return;
  }
  nlohmann::json message = nlohmann::json::parse(frame.text, nullptr, false);
  if (message.is_discarded()) {
    connection_.write(jsonrpc::to_line(
        jsonrpc::error(nullptr, MissionError(ErrorCode::parse_error, "invalid JSON",
                                             "send one complete JSON object per line"))));
    return;
  }
  std::string reply = dispatch(services_, *this, message);
  if (!reply.empty()) {
    (void)faults::hit(faults::FaultPoint::reply_unsent);
    connection_.write(reply);
  }
  if (after_reply_) std::exchange(after_reply_, {})();
}

}  // namespace mission::daemon
