#include "cli/terminal_attach.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "cli/exit_codes.hpp"
#include "shared/display_text.hpp"
#include "shared/error_code.hpp"
#include "shared/terminal_frames.hpp"
#include "shared/terminal_limits.hpp"
#include "shared/terminal_output_filter.hpp"

namespace mission::cli {
namespace {

int g_winch_pipe[2] = {-1, -1};

void on_winch(int) {
  const int saved = errno;
  const char byte = 'w';
  [[maybe_unused]] auto ignored = ::write(g_winch_pipe[1], &byte, 1);
  errno = saved;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, -1);
        continue;
      }
      throw MissionError(ErrorCode::daemon_unavailable,
                         std::string("write failed: ") + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// The person's terminal in raw mode for as long as this lives, then as it
// was, with every mode the agent's output may have set (those the output
// filter lets through) turned off again.
class RawTerminal {
 public:
  explicit RawTerminal(const TerminalOutputFilter& output) : output_(output) {
    if (::tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    termios raw = saved_;
    ::cfmakeraw(&raw);
    // TCSANOW, not TCSAFLUSH: keys typed before attach drew anything are
    // still queued, and reach the agent as tmux would give them.
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0) active_ = true;
  }
  ~RawTerminal() {
    // Synchronized output ended, normal screen, no scroll region (the
    // cursor kept where it is), attributes reset, no mouse (nor its
    // encodings), focus events or bracketed paste, plain cursor keys and
    // keypad, no reverse video or insert mode, autowrap on, the usual
    // character set, a visible steady cursor of the terminal's own style.
    static constexpr std::string_view kRestore =
        "\x1b[?2026l\x1b"
        "7\x1b[r\x1b"
        "8\x1b[0m\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1004l"
        "\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l\x1b[?2004l\x1b[?1l\x1b>\x1b[?5l\x1b[4l\x1b[?"
        "7h"
        "\x0f\x1b(B\x1b[0 q\x1b[?12l\x1b[?25h";
    try {
      if (output_.alternate_screen()) write_all(STDOUT_FILENO, "\x1b[?1049l");
      write_all(STDOUT_FILENO, kRestore);
    } catch (...) {
    }
    if (active_) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;

 private:
  const TerminalOutputFilter& output_;
  termios saved_{};
  bool active_ = false;
};

int exit_status_of(const nlohmann::json& ended) {
  if (ended.value("state", "") == "cancelled") return 130;
  if (ended.contains("exitCode")) return ended.at("exitCode").get<int>();
  if (ended.contains("exitSignal")) return 128 + ended.at("exitSignal").get<int>();
  return kExitFailure;
}

}  // namespace

bool window_size(unsigned short& rows, unsigned short& columns) {
  struct winsize size {};
  for (int fd : {STDIN_FILENO, STDOUT_FILENO}) {
    if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
      rows = size.ws_row;
      columns = size.ws_col;
      return true;
    }
  }
  return false;
}

bool agent_terminal_size(unsigned short& rows, unsigned short& columns, bool& cut) {
  cut = false;
  unsigned short own_rows = 0;
  unsigned short own_columns = 0;
  if (!window_size(own_rows, own_columns)) return false;
  rows = std::clamp(own_rows, limits::kMinTerminalRows, limits::kMaxTerminalRows);
  columns = std::clamp(own_columns, limits::kMinTerminalColumns, limits::kMaxTerminalColumns);
  cut = rows != own_rows || columns != own_columns;
  return true;
}

bool on_terminal() {
  return ::isatty(STDIN_FILENO) == 1 && ::isatty(STDOUT_FILENO) == 1;
}

int attach_terminal(DaemonClient& client, const std::string& id, bool read_only,
                    DaemonClient* events) {
  if (events != nullptr) events->call("events.subscribe", {{"agentExecutionId", id}});
  nlohmann::json params = {{"id", id}, {"readOnly", read_only}};
  unsigned short rows = 0;
  unsigned short columns = 0;
  bool cut = false;
  bool told_cut = false;
  // Said once each time this terminal grows past what an agent's may be,
  // below the screen drawn (a repaint clears what was there).
  auto tell_cut = [&] {
    if (cut && !told_cut && !read_only) {
      write_all(STDERR_FILENO, "\r\n[mission: an agent's terminal has at most " +
                                   std::to_string(limits::kMaxTerminalRows) + " rows and " +
                                   std::to_string(limits::kMaxTerminalColumns) +
                                   " columns; it is " + std::to_string(rows) + "x" +
                                   std::to_string(columns) +
                                   " here and the rest of this terminal stays blank]\r\n");
    }
    told_cut = cut;
  };
  if (agent_terminal_size(rows, columns, cut))
    params["size"] = {{"rows", rows}, {"columns", columns}};
  client.call("terminal.attach", params);
  const int socket = client.fd();
  terminal_frames::Decoder decoder;
  decoder.feed(client.take_buffered());

  if (g_winch_pipe[0] < 0 && ::pipe2(g_winch_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw MissionError(ErrorCode::internal, std::string("pipe: ") + std::strerror(errno));
  }
  struct sigaction action {};
  action.sa_handler = on_winch;
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGWINCH, &action, nullptr);

  const bool interactive = ::isatty(STDIN_FILENO) == 1;
  // The agent's output reaches this terminal through the filter only: it
  // may draw, not set the clipboard, titles or links, query or reset.
  TerminalOutputFilter output_filter;
  std::string shown;
  std::optional<RawTerminal> raw;
  if (interactive) raw.emplace(output_filter);
  auto finish = [&](const std::string& message) {
    raw.reset();
    if (!message.empty()) std::fprintf(stderr, "%s\n", message.c_str());
  };

  char buffer[64 * 1024];
  bool stdin_open = true;
  for (;;) {
    while (auto frame = decoder.next()) {
      if (frame->type == terminal_frames::kOutput) {
        shown.clear();
        output_filter.feed(frame->payload, shown);
        write_all(STDOUT_FILENO, shown);
        tell_cut();
      } else if (frame->type == terminal_frames::kNotice) {
        write_all(STDERR_FILENO, "\r\n[mission: " + text::neutralised(frame->payload) + "]\r\n");
      } else if (frame->type == terminal_frames::kEnded) {
        nlohmann::json ended = nlohmann::json::parse(frame->payload, nullptr, false);
        if (!ended.is_object()) ended = nlohmann::json::object();
        finish("[mission: " + id + " " + text::neutralised(ended.value("state", "ended")) + "]");
        return exit_status_of(ended);
      }
    }
    pollfd fds[4] = {{socket, POLLIN, 0},
                     {g_winch_pipe[0], POLLIN, 0},
                     {stdin_open ? STDIN_FILENO : -1, POLLIN, 0},
                     {events != nullptr ? events->fd() : -1, POLLIN, 0}};
    if (::poll(fds, 4, -1) < 0) {
      if (errno == EINTR) continue;
      throw MissionError(ErrorCode::internal, std::string("poll: ") + std::strerror(errno));
    }
    if (events != nullptr && (fds[3].revents & (POLLIN | POLLHUP | POLLERR))) {
      try {
        do {
          const nlohmann::json event = events->read_event();
          const nlohmann::json observation = event.value("observation", nlohmann::json::object());
          if (observation.value("kind", "") == "needs_input") write_all(STDOUT_FILENO, "\a");
        } while (events->has_buffered_line());
      } catch (const MissionError&) {
        events = nullptr;  // the terminal connection says what became of the daemon
      }
    }
    if (fds[1].revents & POLLIN) {
      char drain[64];
      while (::read(g_winch_pipe[0], drain, sizeof drain) > 0) {
      }
      if (!read_only && agent_terminal_size(rows, columns, cut)) {
        write_all(socket, terminal_frames::encode_resize(rows, columns));
      }
    }
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (interactive) {
          // The person's terminal closed: the agent runs on, detached.
          finish("");
          return kExitOk;
        }
        // Piped input ended (`< /dev/null`, a script): nothing more to type,
        // but the viewer watches on until the agent ends or it is stopped.
        stdin_open = false;
        continue;
      }
      {
        std::string_view typed(buffer, static_cast<std::size_t>(n));
        const std::size_t detach = interactive ? typed.find(kDetachKey) : std::string_view::npos;
        if (detach != 0 && !read_only) {
          write_all(socket,
                    terminal_frames::encode(terminal_frames::kInput, typed.substr(0, detach)));
        }
        if (detach != std::string_view::npos) {
          finish("[mission: detached from " + id + "; it runs on. Back with: mission attach " + id +
                 "]");
          return kExitOk;
        }
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = ::read(socket, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        finish("");
        throw MissionError(ErrorCode::daemon_unavailable, "missiond closed the terminal of " + id,
                           "see mission exec show " + id + "; the daemon may have stopped");
      }
      decoder.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    }
  }
}

}  // namespace mission::cli
