#pragma once
// A blocking control-API client for one Unix-socket connection: the CLI
// sends one request at a time and waits for its answer.

#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "shared/limits.hpp"

namespace mission::cli {

class DaemonClient {
 public:
  // Connects and performs the hello handshake. nullopt when nothing listens
  // on `socket` (no file, or a stale one); throws MissionError for anything
  // else, such as a protocol mismatch or a permission problem.
  static std::optional<DaemonClient> connect(const std::filesystem::path& socket);

  DaemonClient(DaemonClient&& other) noexcept;
  DaemonClient& operator=(DaemonClient&&) = delete;
  DaemonClient(const DaemonClient&) = delete;
  DaemonClient& operator=(const DaemonClient&) = delete;
  ~DaemonClient();

  // Sends a request and returns its result; a JSON-RPC error is thrown as
  // the MissionError it carries. Losing the daemon is daemon_unavailable.
  nlohmann::json call(std::string_view method,
                      const nlohmann::json& params = nlohmann::json::object());

  // The next event notification's params (after events.subscribe); waits
  // as long as it takes. Throws daemon_unavailable when the daemon goes.
  nlohmann::json read_event();

  // Whether an event or a whole line is already read and waiting (poll on
  // fd() would not say so).
  bool has_buffered_line() const {
    return !early_events_.empty() || buffer_.find('\n') != std::string::npos;
  }

  // The daemon's pid, from the handshake.
  long daemon_pid();

  // The connected socket, for callers that take over the byte stream.
  int fd() const { return fd_; }

  // Bytes already read from the socket past the last reply; a caller taking
  // over the stream (the MCP bridge) must forward them first.
  std::string take_buffered() { return std::exchange(buffer_, {}); }

 private:
  explicit DaemonClient(int fd) : fd_(fd) {}
  void send_line(const std::string& line);
  std::string read_line() { return read_line_within(limits::kRequestTimeoutMs); }
  // The next line; -1 waits for ever.
  std::string read_line_within(int timeout_ms);
  nlohmann::json read_reply(std::int64_t id);
  void finish_hello();

  int fd_;
  long daemon_pid_ = 0;
  std::int64_t next_id_ = 1;
  std::string buffer_;
  // The hello is sent at connect but its reply read with the first call's,
  // so a one-request command pays one round trip, not two.
  std::optional<std::int64_t> pending_hello_;
  // Events that arrived while a call waited for its reply (a subscriber
  // asking for the current state, say), in order; read_event gives them
  // first, so none is lost between a subscription and what follows it.
  std::deque<nlohmann::json> early_events_;
};

}  // namespace mission::cli
