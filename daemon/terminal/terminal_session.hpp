#pragma once
// One agent's terminal as the daemon owns it: the screen model, the viewers
// attached to it (several watch, one types, the way tmux shares a pane), and
// where typed bytes and size changes go. Knows nothing of sockets or
// processes: the runner gives it the agent's side, the control API the
// viewers' side. Loop thread only.

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/loop/timer.hpp"
#include "daemon/terminal/screen.hpp"
#include "daemon/terminal/terminal_modes.hpp"

namespace mission::daemon::terminal {

class TerminalSession;

// One attached viewer, implemented by the control API over its connection.
class Viewer {
 public:
  virtual ~Viewer();
  // Bytes for the viewer's terminal.
  virtual void send_output(std::string_view bytes) = 0;
  // A line for the person (e.g. another viewer took the keyboard).
  virtual void send_notice(std::string_view text) = 0;
  // The agent ended; `status` is a JSON object. Sent last.
  virtual void send_end(const std::string& status) = 0;
  // Bytes queued to the viewer and not written yet.
  virtual std::size_t backlog() const = 0;

  TerminalSession* session() const { return session_; }

 private:
  friend class TerminalSession;
  TerminalSession* session_ = nullptr;
  bool behind_ = false;  // output was dropped: repaint once it has caught up
  bool types_ = false;
};

class TerminalSession {
 public:
  // What reaches the agent: typed bytes, and the terminal's size.
  struct AgentSide {
    std::function<void(std::string_view)> write;
    std::function<void(unsigned short rows, unsigned short columns)> resize;
    // Bytes written and not yet taken by the agent's terminal; none if empty.
    std::function<std::size_t()> queued;
  };

  // `loop` times the Enter that follows typed text.
  TerminalSession(uv_loop_t* loop, unsigned short rows, unsigned short columns, AgentSide agent);
  // Viewers still attached are detached (their connections see the end first).
  ~TerminalSession();
  TerminalSession(const TerminalSession&) = delete;
  TerminalSession& operator=(const TerminalSession&) = delete;

  // The agent's output: into the screen model and to every viewer.
  void on_output(std::string_view bytes);

  // Attaches `viewer`, which gets a repaint of the current screen. With
  // `types` it takes the keyboard (the one typing before only watches
  // from now on) and the terminal takes its size (0 x 0: keeps its own).
  // Throws MissionError when kMaxTerminalViewers are attached.
  void attach(Viewer& viewer, bool types, unsigned short rows, unsigned short columns);
  void detach(Viewer& viewer);

  // Keystrokes and a new size from `viewer`; ignored unless it types.
  // Keys past kMaxQueuedInputBytes waiting for the agent (it does not read
  // them) are dropped, and the viewer is told once until it reads again. A
  // size outside kMin/kMaxTerminalRows and kMin/kMaxTerminalColumns (also
  // in attach) is refused with a notice to the viewer saying why.
  void input(Viewer& viewer, std::string_view bytes);
  void resize(Viewer& viewer, unsigned short rows, unsigned short columns);

  // Types `text` as if at the keyboard, then Enter (a carriage return)
  // kTypedEnterPauseMs later unless `enter` is false: answers and messages
  // for the agent. Keys typed meanwhile follow that Enter, in order. The
  // caller checks queued_input() first: typed text is never dropped.
  void type(std::string_view text, bool enter);

  // Bytes typed for the agent that it has not read yet: those waiting
  // behind an Enter's pause and those its terminal has not taken.
  std::size_t queued_input() const;

  // The agent ended: every viewer gets `status` and is detached.
  void end(const std::string& status);

  // The screen model, brought up to date with the output first.
  const Screen& screen();

  // `settled` runs on the loop once the agent's output has settled: quiet
  // for kScreenSettleMs, or kScreenSettleMaxMs after output nobody looked
  // at yet however busy the agent is. What reads the screen (a permission
  // prompt) reads it there, not on every write.
  void on_settled(std::function<void()> settled) { settled_ = std::move(settled); }
  std::size_t viewers() const { return viewers_.size(); }
  bool has_typist() const;

 private:
  void send_to(Viewer& viewer, std::string_view bytes);
  // Feeds the output that waits for the screen model into it.
  void catch_up();
  // Keys for the agent, after those still waiting; `after_pause` ones wait
  // kTypedEnterPauseMs after the keys before them.
  void queue_keys(std::string_view bytes, bool after_pause);
  void send_keys();
  // Keeps of the waiting output its last kScreenBacklogBytes, from a line
  // start.
  void trim_pending();

  // The screen as the model has it, then the modes the program turned on.
  std::string repaint();

  Screen screen_;
  TerminalModes modes_;  // fed every byte, even those the lagging model skips
  std::string pending_;  // output not yet in the screen model
  // Output in the current window of kScreenWindowMs: past kScreenEagerBytes
  // it waits for the model.
  std::int64_t window_start_ms_ = 0;
  std::size_t window_bytes_ = 0;
  // Output left waiting goes into the model once the agent has been quiet
  // for a window: it may have asked something (where the cursor is) and
  // wait for the answer, with no viewer to give it.
  std::int64_t last_output_ms_ = 0;
  bool quiet_check_armed_ = false;
  loop::Timer quiet_timer_;
  void on_quiet_timer();
  // Output not yet looked at by `settled_` since this time (0: none).
  std::int64_t unsettled_since_ = 0;
  bool settle_armed_ = false;
  std::function<void()> settled_;
  loop::Timer settle_timer_;
  void on_settle_timer();
  AgentSide agent_;
  struct Keys {
    std::string bytes;
    bool after_pause;
  };
  std::deque<Keys> keys_;          // waiting behind a pause
  std::size_t keys_bytes_ = 0;     // in keys_
  bool told_not_reading_ = false;  // the typist knows its keys are dropped
  bool pausing_ = false;
  loop::Timer pause_timer_;
  // Sizes asked for by the typist. A resize costs tens of ms at the
  // largest sizes, so one is applied at once and the next waits for
  // kTerminalResizeIntervalMs to pass; only the last size asked for
  // meanwhile is applied then.
  void want_size(unsigned short rows, unsigned short columns);
  void apply_wanted_size();
  std::optional<std::pair<unsigned short, unsigned short>> wanted_size_;
  bool resize_cooling_ = false;
  loop::Timer resize_timer_;
  std::vector<Viewer*> viewers_;
};

}  // namespace mission::daemon::terminal
