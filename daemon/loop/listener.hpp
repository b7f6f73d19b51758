#pragma once
// A Unix-socket listener that accepts connections from the daemon's own uid
// only and tracks every live connection. Knows nothing of JSON.

#include <uv.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "daemon/loop/connection.hpp"
#include "shared/limits.hpp"

namespace mission::loop {

// missiond --max-connections and --hello-timeout.
struct ConnectionSettings {
  std::size_t max_connections = limits::kMaxConnections;
  int hello_timeout_ms = limits::kHelloTimeoutMs;
};

class Listener {
 public:
  // Makes the protocol delegate for a newly accepted connection.
  using DelegateFactory = std::function<std::unique_ptr<ConnectionDelegate>(Connection&)>;

  Listener(uv_loop_t* loop, DelegateFactory factory);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Binds `path` with mode 0600 and listens. Returns 0 or a negative uv code.
  // The path must not exist (the caller removes a stale socket under its lock).
  int listen(const std::filesystem::path& path);

  // Stops accepting; existing connections go on.
  void stop_accepting();

  // Asks every connection to close once its queued bytes are written.
  void close_connections();

  // Closes every connection now, dropping unsent bytes.
  void abort_connections();

  // Formats the one protocol line a refused connection is sent: what went
  // wrong and what to do.
  using RefusalFormatter =
      std::function<std::string(const std::string& why, const std::string& hint)>;

  // At most `max` connections at once; one more is refused with a line
  // from `refusal` and closed. So is one arriving when fewer than
  // kReservedFds file descriptors are left below RLIMIT_NOFILE, kept for
  // the database, logs and agents.
  void limit_connections(std::size_t max, RefusalFormatter refusal) {
    max_connections_ = max;
    refusal_ = std::move(refusal);
  }
  static constexpr int kReservedFds = 32;

  std::size_t connection_count() const { return connections_.size(); }
  std::size_t refused_count() const { return refused_; }
  std::size_t evicted_count() const { return evicted_; }

  // Called whenever the last connection is released (used by shutdown).
  std::function<void()> on_idle;

 private:
  static void on_connection(uv_stream_t* server, int status);
  void accept_one();
  std::size_t open_connections() const;
  bool make_room(const Connection* arriving);
  std::string refusal(const std::string& why, const std::string& hint) const;
  // Why `connection` cannot be served for lack of descriptors, or empty.
  std::string descriptors_short(Connection& connection);

  uv_loop_t* loop_;
  DelegateFactory factory_;
  uv_pipe_t server_{};
  bool listening_ = false;
  bool closed_ = false;
  std::size_t refused_ = 0;
  std::size_t evicted_ = 0;
  std::size_t max_connections_ = static_cast<std::size_t>(-1);
  RefusalFormatter refusal_;
  bool warned_full_ = false;
  bool warned_fds_ = false;
  std::unordered_set<Connection*> connections_;
};

}  // namespace mission::loop
