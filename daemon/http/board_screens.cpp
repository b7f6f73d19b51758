#include "daemon/http/board_screens.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "daemon/http/board_limits.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/rpc/terminal_methods.hpp"
#include "shared/error_code.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon::http {

class ScreenViewer : public terminal::Viewer {
 public:
  ScreenViewer(BoardScreens& owner, std::shared_ptr<HttpExchange> exchange)
      : owner_(owner),
        exchange_(std::move(exchange)),
        timer_(owner.loop_, [this] { on_timer(); }) {}
  ~ScreenViewer() override { leave(); }

  void send_output(std::string_view) override {
    if (armed_ || done_) return;
    armed_ = true;
    timer_.start(board_limits::kBoardScreenIntervalMs);
  }
  void send_notice(std::string_view) override {}
  void send_end(const std::string& status) override {
    send_screen();
    nlohmann::json end = {{"ended", true},
                          {"status", nlohmann::json::parse(status, nullptr, false)}};
    if (exchange_)
      exchange_->send_event(end.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    finish();
  }
  std::size_t backlog() const override { return exchange_ ? exchange_->queued_bytes() : 0; }

  // The screen now, when the page has taken what it was sent before.
  void send_screen() {
    terminal::TerminalSession* session = this->session();
    if (session == nullptr || !exchange_ || !exchange_->open()) return;
    if (exchange_->queued_bytes() > board_limits::kMaxBoardScreenBacklogBytes) {
      send_output({});  // behind: the next frame, once it has caught up
      return;
    }
    const terminal::Screen& screen = session->screen();
    const nlohmann::json frame = {
        {"rows", screen.rows()}, {"columns", screen.columns()}, {"text", screen.text()}};
    exchange_->send_event(frame.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }

  // Ends the stream and leaves the terminal; forgotten after this turn.
  void finish() {
    if (done_) return;
    done_ = true;
    timer_.stop();
    leave();
    if (exchange_) {
      // Once the answer is ended its on_gone never runs: the viewer may go.
      exchange_->end();
      exchange_.reset();
    }
    owner_.sweep_turn_.schedule();
  }
  bool done() const { return done_; }

 private:
  void on_timer() {
    armed_ = false;
    send_screen();
  }
  void leave() {
    if (terminal::TerminalSession* session = this->session()) session->detach(*this);
  }

  BoardScreens& owner_;
  std::shared_ptr<HttpExchange> exchange_;
  loop::Timer timer_;
  bool armed_ = false;
  bool done_ = false;
};

BoardScreens::BoardScreens(ControlServices& services, uv_loop_t* loop)
    : services_(services), loop_(loop), sweep_turn_(loop, [this] { sweep(); }) {}

BoardScreens::~BoardScreens() = default;

void BoardScreens::follow(const std::shared_ptr<HttpExchange>& exchange, const std::string& id) {
  terminal::TerminalSession& session = require_terminal(services_, id);
  if (session.viewers() >= limits::kMaxTerminalViewers) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "this terminal has " + std::to_string(limits::kMaxTerminalViewers) + " viewers already",
        "close another page or viewer of it first");
  }
  exchange->start_events({});
  auto viewer = std::make_unique<ScreenViewer>(*this, exchange);
  ScreenViewer* raw = viewer.get();
  exchange->on_gone = [raw] { raw->finish(); };
  viewers_.push_back(std::move(viewer));
  session.attach(*raw, false, 0, 0);
  raw->send_screen();
}

void BoardScreens::end_all() {
  for (auto& viewer : viewers_) viewer->finish();
  sweep();
}

void BoardScreens::sweep() {
  std::erase_if(viewers_, [](const std::unique_ptr<ScreenViewer>& v) { return v->done(); });
}

}  // namespace mission::daemon::http
