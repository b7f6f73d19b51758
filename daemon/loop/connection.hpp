#pragma once
// One accepted stream socket. Owns its uv handle and write queue, applies
// backpressure, and frees itself in the close callback. Knows nothing of JSON.

#include <sys/types.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mission::loop {

class Connection;

// What a protocol layer implements to receive a connection's events. All
// calls happen on the loop thread; on_closed is the last one.
class ConnectionDelegate {
 public:
  virtual ~ConnectionDelegate() = default;
  virtual void on_data(Connection& connection, std::string_view bytes) = 0;
  // The peer closed its side; the default closes ours once writes are flushed.
  virtual void on_eof(Connection& connection);
  virtual void on_closed(Connection& connection) { (void)connection; }
  // Queued bytes were written and fewer than limits::kMaxQueuedWriteBytes
  // remain: a delegate that held frames back may go on with them.
  virtual void on_writable(Connection& connection) { (void)connection; }
  // Whether the listener may close this connection to make room for a new
  // one when it holds its most (a connection that never said hello).
  virtual bool evictable() const { return false; }
};

class Connection {
 public:
  struct PeerCredentials {
    pid_t pid = 0;
    uid_t uid = 0;
  };

  // Accepts a pending connection on `server`; nullptr (and a negative uv code
  // in `error`) if that fails. The connection frees itself once closed.
  static Connection* accept(uv_stream_t* server, int& error);

  // Starts reading; `delegate` receives the events from now on.
  void start(std::unique_ptr<ConnectionDelegate> delegate);

  // Queues bytes for the peer. Ignored once the connection is closing.
  void write(std::string_view bytes);

  // While held, nothing more is read from the peer (the delegate has frames
  // it has not handled yet). Reading also stops on its own while more than
  // limits::kMaxQueuedWriteBytes wait to be written.
  void hold_reading(bool held) {
    held_ = held;
    update_reading();
  }

  // Closes after the queued bytes are written.
  void close();

  // Closes now, dropping queued bytes.
  void abort() { close_handle(); }

  bool closing() const { return closing_; }
  // The socket's descriptor; 0 or a negative uv code.
  int fileno(uv_os_fd_t& fd) const {
    return uv_fileno(reinterpret_cast<const uv_handle_t*>(&pipe_), &fd);
  }
  std::uint64_t id() const { return id_; }
  const PeerCredentials& peer() const { return peer_; }
  std::size_t queued_bytes() const { return queued_bytes_; }
  ConnectionDelegate* delegate() const { return delegate_.get(); }

  // Called once the handle is closed, before the connection is freed. Set by
  // the owner that tracks live connections.
  std::function<void(Connection&)> on_released;

 private:
  Connection();
  ~Connection();

  void close_handle();
  void update_reading();

  static void on_alloc(uv_handle_t* handle, std::size_t suggested, uv_buf_t* buf);
  static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void on_write(uv_write_t* req, int status);
  static void on_close(uv_handle_t* handle);

  uv_pipe_t pipe_{};
  std::unique_ptr<ConnectionDelegate> delegate_;
  PeerCredentials peer_;
  std::uint64_t id_;
  std::size_t queued_bytes_ = 0;
  bool reading_ = false;
  bool held_ = false;
  bool eof_ = false;
  bool closing_ = false;        // close requested; no more writes accepted
  bool handle_closed_ = false;  // uv_close called
};

}  // namespace mission::loop
