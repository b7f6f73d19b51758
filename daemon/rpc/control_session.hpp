#pragma once
// The protocol side of one control-API connection: splits bytes into frames,
// answers framing and JSON errors itself and hands requests to dispatch().
// After mcp.attach the same connection carries MCP, and frames go to the
// McpSession instead.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "daemon/loop/connection.hpp"
#include "daemon/loop/next_turn.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/mcp/mcp_session.hpp"
#include "daemon/rpc/method_context.hpp"
#include "daemon/terminal/terminal_session.hpp"
#include "shared/framing.hpp"

namespace mission::daemon {

struct ClientInfo {
  std::string name;
  std::string version;
};

class ControlSession : public loop::ConnectionDelegate {
 public:
  // A connection that has not completed hello after `hello_timeout_ms` is
  // closed.
  ControlSession(ControlServices& services, loop::Connection& connection, int hello_timeout_ms);

  void on_data(loop::Connection& connection, std::string_view bytes) override;
  // Goes on with frames held back while the peer was not reading.
  void on_writable(loop::Connection& connection) override;
  bool evictable() const override { return !greeted_; }
  // An MCP session may still owe replies to deferred tool calls.
  void on_eof(loop::Connection& connection) override;
  void on_closed(loop::Connection& connection) override;

  bool greeted() const { return greeted_; }
  void greet(ClientInfo client);
  const ClientInfo& client() const { return client_; }
  loop::Connection& connection() { return connection_; }

  // From the next frame on, this connection speaks MCP through `session`.
  void become_mcp(std::unique_ptr<mcp::McpSession> session);
  bool is_mcp() const { return mcp_ != nullptr; }

  // From the next bytes on, this connection carries terminal frames to and
  // from `viewer` (terminal.attach).
  void become_terminal(std::unique_ptr<terminal::Viewer> viewer,
                       std::function<void(std::string_view)> on_bytes);
  bool is_terminal() const { return viewer_ != nullptr; }

  // Answers request `id` once `deferred` has run (see DeferredReply);
  // nothing is written when `reply` is false (a notification) or the
  // connection has gone meanwhile.
  void reply_later(nlohmann::json id, DeferredReply deferred, bool reply);

  // Runs `action` once the reply to the current request is queued.
  void after_reply(std::function<void()> action) { after_reply_ = std::move(action); }

 private:
  void handle_frame(const Frame& frame);
  // Handles held frames while the peer keeps up; holds reading otherwise.
  void pump();

  ControlServices& services_;
  loop::Connection& connection_;
  LineFramer framer_;
  // Frames read but not handled yet: at most one read's worth, since
  // reading stops while any wait.
  std::deque<Frame> pending_;
  bool pumping_ = false;
  // This turn's share of the loop (limits::kMaxHandlingNsPerTurn): the
  // loop time it was taken at, and the frames and time spent in it. Every
  // pump of one turn (a read, each write done) draws on the same share.
  std::uint64_t turn_loop_ms_ = UINT64_MAX;
  std::size_t turn_frames_ = 0;
  std::uint64_t turn_ns_ = 0;
  loop::Timer hello_timer_;
  // Resumes handling held frames on the next turn of the loop, after
  // other connections' I/O.
  loop::NextTurn resume_;
  bool greeted_ = false;
  ClientInfo client_;
  std::unique_ptr<mcp::McpSession> mcp_;
  std::unique_ptr<terminal::Viewer> viewer_;
  std::function<void(std::string_view)> viewer_bytes_;
  std::function<void()> after_reply_;
  // Deferred replies check it: the session may be gone when they finish.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace mission::daemon
