#pragma once
// GET /api/executions/ID/screen for the board: an agent's terminal as the
// daemon's screen model holds it, as text, sent as a server-sent event at
// once and again after each change (at most one every
// kBoardScreenIntervalMs). Each page is a read-only viewer of the terminal
// (it counts against kMaxTerminalViewers); a page that does not keep up
// skips frames, never buffers them. Typing goes through terminal.input.

#include <uv.h>

#include <memory>
#include <string>
#include <vector>

#include "daemon/http/http_connection.hpp"
#include "daemon/loop/next_turn.hpp"
#include "daemon/rpc/method_context.hpp"

namespace mission::daemon::http {

class ScreenViewer;

class BoardScreens {
 public:
  BoardScreens(ControlServices& services, uv_loop_t* loop);
  ~BoardScreens();
  BoardScreens(const BoardScreens&) = delete;
  BoardScreens& operator=(const BoardScreens&) = delete;

  // Starts the stream of execution `id`'s screen on `exchange`, or
  // answers why it cannot (not a terminal agent, ended, too many viewers).
  void follow(const std::shared_ptr<HttpExchange>& exchange, const std::string& id);
  // Ends every stream (the listener stops).
  void end_all();

 private:
  friend class ScreenViewer;
  // Forgets the viewers whose stream ended, after the current turn.
  void sweep();

  ControlServices& services_;
  uv_loop_t* loop_;
  std::vector<std::unique_ptr<ScreenViewer>> viewers_;
  loop::NextTurn sweep_turn_;
};

}  // namespace mission::daemon::http
