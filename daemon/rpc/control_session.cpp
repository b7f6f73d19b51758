#include "daemon/rpc/control_session.hpp"

#include <utility>

#include "daemon/rpc/dispatcher.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

ControlSession::ControlSession(ControlServices& services, loop::Connection& connection)
    : services_(services), connection_(connection), framer_(limits::kMaxFrameBytes) {}

void ControlSession::greet(ClientInfo client) {
  greeted_ = true;
  client_ = std::move(client);
}

void ControlSession::become_terminal(std::unique_ptr<terminal::Viewer> viewer,
                                     std::function<void(std::string_view)> on_bytes) {
  viewer_ = std::move(viewer);
  viewer_bytes_ = std::move(on_bytes);
}

void ControlSession::on_data(loop::Connection& connection, std::string_view bytes) {
  if (viewer_) {
    viewer_bytes_(bytes);
    return;
  }
  for (const Frame& frame : framer_.feed(bytes)) {
    if (connection.closing()) return;
    handle_frame(frame);
    // The client sends no frames before the attach reply, so nothing after
    // it in this read belongs to the line protocol.
    if (viewer_) return;
  }
}

void ControlSession::on_eof(loop::Connection& connection) {
  if (mcp_) {
    mcp_->on_client_done();
  } else {
    connection.close();
  }
}

void ControlSession::on_closed(loop::Connection& connection) {
  services_.events.unsubscribe(connection);
  viewer_.reset();  // detaches from the terminal
  if (mcp_) mcp_->on_closed();
}

void ControlSession::handle_frame(const Frame& frame) {
  if (mcp_) {
    mcp_->handle_frame(frame);
    return;
  }
  if (frame.kind == Frame::Kind::oversized) {
    // The id is unknowable without parsing a frame we refuse to hold.
    connection_.write(jsonrpc::to_line(jsonrpc::error(
        nullptr, MissionError(ErrorCode::payload_too_large,
                              "frame exceeds " + std::to_string(limits::kMaxFrameBytes) + " bytes",
                              "send smaller requests; large content belongs in files",
                              {{"limit", limits::kMaxFrameBytes}}))));
    return;
  }
  nlohmann::json message = nlohmann::json::parse(frame.text, nullptr, false);
  if (message.is_discarded()) {
    connection_.write(jsonrpc::to_line(jsonrpc::error(
        nullptr, MissionError(ErrorCode::parse_error, "invalid JSON",
                              "send one complete JSON object per line"))));
    return;
  }
  std::string reply = dispatch(services_, *this, message);
  if (!reply.empty()) connection_.write(reply);
  if (after_reply_) std::exchange(after_reply_, {})();
}

}  // namespace mission::daemon
