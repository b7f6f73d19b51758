#include "cli/mcp_bridge.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "shared/limits.hpp"

namespace mission::cli {
namespace {

// A buffered direction of the pump: bytes read from one fd, not yet written
// to the other. Reading stops while it holds kBridgeBufferBytes, so a slow
// reader slows the writer instead of growing memory.
struct Direction {
  std::string pending;
  bool source_open = true;
  bool wants_input() const { return source_open && pending.size() < limits::kBridgeBufferBytes; }
};

// Reads what is available from `fd` into `to`; false at EOF or on error.
bool read_into(int fd, std::string& to) {
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
      to.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
}

// Writes some of `from` to `fd` without blocking for long; false on error.
// stdout stays in blocking mode (it may be the user's terminal, whose mode
// outlives us), so writes to it are capped at PIPE_BUF, which a pipe that
// polled writable takes whole.
bool write_from(int fd, std::string& from, bool capped) {
  std::size_t size = capped ? std::min<std::size_t>(from.size(), PIPE_BUF) : from.size();
  for (;;) {
    ssize_t n = fd == STDOUT_FILENO ? ::write(fd, from.data(), size)
                                    : ::send(fd, from.data(), size, MSG_NOSIGNAL);
    if (n >= 0) {
      from.erase(0, static_cast<std::size_t>(n));
      return true;
    }
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

}  // namespace

BridgeEnd run_bridge(int socket_fd, std::string pending_output) {
  // A client that closes our stdout is done with us: a write error ends the
  // session cleanly instead of a SIGPIPE ending the process.
  std::signal(SIGPIPE, SIG_IGN);
  ::fcntl(socket_fd, F_SETFL, ::fcntl(socket_fd, F_GETFL) | O_NONBLOCK);
  Direction upstream;    // stdin -> socket
  Direction downstream;  // socket -> stdout
  downstream.pending = std::move(pending_output);
  bool sent_eof = false;
  bool daemon_gone = false;

  for (;;) {
    // The client is done: pass the EOF on once its last bytes are sent; the
    // daemon then ends the session and closes, which ends the loop below.
    if (!upstream.source_open && upstream.pending.empty() && !sent_eof) {
      ::shutdown(socket_fd, SHUT_WR);
      sent_eof = true;
    }
    if (!downstream.source_open && downstream.pending.empty()) {
      return daemon_gone ? BridgeEnd::daemon_closed : BridgeEnd::client_closed;
    }

    pollfd fds[3];
    nfds_t count = 0;
    int stdin_slot = -1, socket_slot = -1, stdout_slot = -1;
    if (upstream.wants_input()) {
      stdin_slot = static_cast<int>(count);
      fds[count++] = {STDIN_FILENO, POLLIN, 0};
    }
    short socket_events = 0;
    if (downstream.wants_input()) socket_events |= POLLIN;
    if (!upstream.pending.empty()) socket_events |= POLLOUT;
    if (socket_events != 0) {
      socket_slot = static_cast<int>(count);
      fds[count++] = {socket_fd, socket_events, 0};
    }
    if (!downstream.pending.empty()) {
      stdout_slot = static_cast<int>(count);
      fds[count++] = {STDOUT_FILENO, POLLOUT, 0};
    }
    if (::poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      return BridgeEnd::client_closed;
    }

    if (stdin_slot >= 0 && fds[stdin_slot].revents != 0) {
      upstream.source_open = read_into(STDIN_FILENO, upstream.pending);
    }
    if (socket_slot >= 0) {
      short revents = fds[socket_slot].revents;
      if ((revents & POLLOUT) && !write_from(socket_fd, upstream.pending, false)) {
        daemon_gone = true;
        upstream.pending.clear();
        upstream.source_open = false;
        downstream.source_open = false;
      }
      if (!daemon_gone && (revents & (POLLIN | POLLHUP | POLLERR))) {
        downstream.source_open = read_into(socket_fd, downstream.pending);
        // EOF before we passed the client's on means the daemon left first.
        if (!downstream.source_open && !sent_eof) daemon_gone = true;
      }
    }
    if (stdout_slot >= 0 && fds[stdout_slot].revents != 0) {
      if (!write_from(STDOUT_FILENO, downstream.pending, true)) {
        return BridgeEnd::client_closed;  // nobody reads our answers any more
      }
    }
  }
}

}  // namespace mission::cli
