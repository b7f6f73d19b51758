#include "daemon/terminal/terminal_session.hpp"

#include <algorithm>

#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon::terminal {
namespace {

// Why a size is refused, for the person at the viewer.
std::string size_refusal(unsigned rows, unsigned columns, const Screen& screen) {
  return "the agent's terminal stays " + std::to_string(screen.rows()) + "x" +
         std::to_string(screen.columns()) + ": a size of " + std::to_string(rows) + "x" +
         std::to_string(columns) + " (rows x columns) was refused; a " + "terminal has " +
         std::to_string(limits::kMinTerminalRows) + " to " +
         std::to_string(limits::kMaxTerminalRows) + " rows and " +
         std::to_string(limits::kMinTerminalColumns) + " to " +
         std::to_string(limits::kMaxTerminalColumns) + " columns";
}

}  // namespace

Viewer::~Viewer() {
  if (session_ != nullptr) session_->detach(*this);
}

TerminalSession::TerminalSession(uv_loop_t* loop, unsigned short rows, unsigned short columns,
                                 AgentSide agent)
    : screen_(rows, columns),
      quiet_timer_(loop, [this] { on_quiet_timer(); }),
      settle_timer_(loop, [this] { on_settle_timer(); }),
      agent_(std::move(agent)),
      pause_timer_(loop,
                   [this] {
                     pausing_ = false;
                     send_keys();
                   }),
      resize_timer_(loop, [this] {
        resize_cooling_ = false;
        apply_wanted_size();
      }) {
  // Programs ask the terminal where the cursor is or what it is, and some
  // wait for the answer. The screen model answers, viewers or not: a
  // viewer's own terminal never sees the query (the CLI's output filter
  // drops it, so that nothing an agent writes makes the person's terminal
  // type into it), and a detached agent never hangs.
  screen_.on_reply([this](std::string_view reply) {
    if (agent_.write) agent_.write(reply);
  });
}

TerminalSession::~TerminalSession() {
  for (Viewer* viewer : viewers_) viewer->session_ = nullptr;
}

bool TerminalSession::has_typist() const {
  return std::any_of(viewers_.begin(), viewers_.end(), [](const Viewer* v) { return v->types_; });
}

void TerminalSession::send_to(Viewer& viewer, std::string_view bytes) {
  // A viewer that does not keep up stops getting output instead of holding
  // the agent or the daemon's memory; once its queue drains it gets the
  // whole screen again, which says everything the dropped bytes did.
  if (viewer.backlog() > limits::kMaxViewerBacklogBytes) {
    viewer.behind_ = true;
    return;
  }
  if (viewer.behind_) {
    viewer.behind_ = false;
    viewer.send_output(repaint());
    return;
  }
  viewer.send_output(bytes);
}

namespace {

// A lagging model's output is cut back to its last kScreenBacklogBytes only
// once it holds this many times as much: one cut per burst of that size
// instead of a move of the whole backlog on every read.
constexpr std::size_t kScreenBacklogSlack = 4;

}  // namespace

void TerminalSession::trim_pending() {
  if (pending_.size() <= limits::kScreenBacklogBytes) return;
  // Of a burst, its end from a line start: what a screen shows of it.
  std::size_t keep_from = pending_.size() - limits::kScreenBacklogBytes;
  const std::size_t line = pending_.find('\n', keep_from);
  if (line != std::string::npos && line + 1 < pending_.size()) keep_from = line + 1;
  pending_.erase(0, keep_from);
}

void TerminalSession::catch_up() {
  if (pending_.empty()) return;
  trim_pending();
  screen_.feed(pending_);
  pending_.clear();
}

const Screen& TerminalSession::screen() {
  catch_up();
  return screen_;
}

void TerminalSession::on_output(std::string_view bytes) {
  // Viewers get every byte at once; the model may lag.
  modes_.feed(bytes);
  pending_.append(bytes);
  for (Viewer* viewer : viewers_) send_to(*viewer, bytes);
  const std::int64_t now = unix_ms_now();
  if (now - window_start_ms_ >= limits::kScreenWindowMs) {
    window_start_ms_ = now;
    window_bytes_ = 0;
  }
  window_bytes_ += bytes.size();
  last_output_ms_ = now;
  if (settled_) {
    if (unsettled_since_ == 0) unsettled_since_ = now;
    if (!settle_armed_) {
      settle_armed_ = true;
      settle_timer_.start(limits::kScreenSettleMs);
    }
  }
  if (window_bytes_ <= limits::kScreenEagerBytes) {
    catch_up();
    return;
  }
  if (pending_.size() > kScreenBacklogSlack * limits::kScreenBacklogBytes) trim_pending();
  if (!quiet_check_armed_) {
    quiet_check_armed_ = true;
    quiet_timer_.start(limits::kScreenWindowMs);
  }
}

void TerminalSession::on_quiet_timer() {
  quiet_check_armed_ = false;
  if (pending_.empty()) return;
  const std::int64_t quiet_for = unix_ms_now() - last_output_ms_;
  if (quiet_for < limits::kScreenWindowMs) {
    // Still writing: look again once a window has passed since its last output.
    quiet_check_armed_ = true;
    quiet_timer_.start(static_cast<int>(limits::kScreenWindowMs - quiet_for));
    return;
  }
  catch_up();
}

void TerminalSession::on_settle_timer() {
  settle_armed_ = false;
  const std::int64_t now = unix_ms_now();
  const std::int64_t quiet_for = now - last_output_ms_;
  const std::int64_t waited = now - unsettled_since_;
  if (quiet_for < limits::kScreenSettleMs && waited < limits::kScreenSettleMaxMs) {
    settle_armed_ = true;
    settle_timer_.start(static_cast<int>(
        std::min(limits::kScreenSettleMs - quiet_for, limits::kScreenSettleMaxMs - waited)));
    return;
  }
  unsettled_since_ = 0;
  if (settled_) settled_();
}

void TerminalSession::attach(Viewer& viewer, bool types, unsigned short rows,
                             unsigned short columns) {
  if (viewer.session_ == this) return;
  if (viewers_.size() >= limits::kMaxTerminalViewers) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "this terminal has " + std::to_string(limits::kMaxTerminalViewers) + " viewers already",
        "detach another viewer first");
  }
  viewer.session_ = this;
  viewer.types_ = false;
  viewers_.push_back(&viewer);
  if (types) {
    for (Viewer* other : viewers_) {
      if (other->types_) {
        other->types_ = false;
        other->send_notice("another viewer took the keyboard; this one only watches now");
      }
    }
    viewer.types_ = true;
    catch_up();
    const bool sized = rows != 0 || columns != 0;
    if (sized && !limits::terminal_size_allowed(rows, columns)) {
      viewer.send_notice(size_refusal(rows, columns, screen_));
    } else if (sized) {
      want_size(rows, columns);
    }
  }
  viewer.send_output(repaint());
}

std::string TerminalSession::repaint() {
  catch_up();
  // Modes before the cells: whoever sees the screen drawn can already paste
  // into it and press its cursor keys (the alternate screen switch in the
  // repaint leaves these modes as they are).
  return modes_.restore() + screen_.repaint();
}

void TerminalSession::detach(Viewer& viewer) {
  viewers_.erase(std::remove(viewers_.begin(), viewers_.end(), &viewer), viewers_.end());
  viewer.session_ = nullptr;
  viewer.types_ = false;
}

std::size_t TerminalSession::queued_input() const {
  return keys_bytes_ + (agent_.queued ? agent_.queued() : 0);
}

void TerminalSession::input(Viewer& viewer, std::string_view bytes) {
  if (viewer.session_ != this || !viewer.types_) return;
  // An agent that never reads would have the daemon keep every key typed
  // at it (300 MB of them cost 295 MiB): past the bound they are dropped.
  if (queued_input() + bytes.size() > limits::kMaxQueuedInputBytes) {
    if (!told_not_reading_) {
      told_not_reading_ = true;
      viewer.send_notice(
          "the agent is not reading its keyboard: " + std::to_string(queued_input()) +
          " bytes typed wait for it, and what you type now is dropped until it reads them");
    }
    return;
  }
  if (told_not_reading_) {
    told_not_reading_ = false;
    viewer.send_notice("the agent reads its keyboard again; keys typed meanwhile were dropped");
  }
  queue_keys(bytes, false);
}

void TerminalSession::resize(Viewer& viewer, unsigned short rows, unsigned short columns) {
  if (viewer.session_ != this || !viewer.types_) return;
  if (!limits::terminal_size_allowed(rows, columns)) {
    viewer.send_notice(size_refusal(rows, columns, screen_));
    return;
  }
  want_size(rows, columns);
}

void TerminalSession::want_size(unsigned short rows, unsigned short columns) {
  wanted_size_ = {rows, columns};
  if (!resize_cooling_) apply_wanted_size();
}

void TerminalSession::apply_wanted_size() {
  if (!wanted_size_) return;
  auto [rows, columns] = *wanted_size_;
  wanted_size_.reset();
  if (rows == screen_.rows() && columns == screen_.columns()) return;
  catch_up();
  screen_.resize(rows, columns);
  if (agent_.resize) agent_.resize(rows, columns);
  resize_cooling_ = true;
  resize_timer_.start(limits::kTerminalResizeIntervalMs);
}

void TerminalSession::type(std::string_view text, bool enter) {
  queue_keys(text, false);
  if (enter) queue_keys("\r", true);
}

void TerminalSession::queue_keys(std::string_view bytes, bool after_pause) {
  if (!agent_.write || (bytes.empty() && !after_pause)) return;
  keys_.push_back({std::string(bytes), after_pause});
  keys_bytes_ += bytes.size();
  send_keys();
}

void TerminalSession::send_keys() {
  while (!keys_.empty() && !pausing_) {
    Keys& next = keys_.front();
    if (next.after_pause) {
      next.after_pause = false;
      pausing_ = true;
      pause_timer_.start(limits::kTypedEnterPauseMs);
      return;
    }
    agent_.write(next.bytes);
    keys_bytes_ -= next.bytes.size();
    keys_.pop_front();
  }
}

void TerminalSession::end(const std::string& status) {
  std::vector<Viewer*> viewers;
  viewers.swap(viewers_);
  for (Viewer* viewer : viewers) {
    viewer->session_ = nullptr;
    viewer->types_ = false;
    viewer->send_end(status);
  }
}

}  // namespace mission::daemon::terminal
