#include "daemon/loop/connection.hpp"

#include <sys/socket.h>

#include <cstdio>

#include "shared/limits.hpp"

namespace mission::loop {
namespace {

struct WriteRequest {
  uv_write_t req;
  std::string data;
};

// libuv hands out one read at a time on the loop thread, so every connection
// can share one buffer; per-connection buffers would cost 64 KiB each.
constexpr std::size_t kReadBufferBytes = 64 * 1024;
char g_read_buffer[kReadBufferBytes];

std::uint64_t g_next_connection_id = 1;

}  // namespace

void ConnectionDelegate::on_eof(Connection& connection) {
  connection.close();
}

Connection::Connection() : id_(g_next_connection_id++) {
  pipe_.data = this;
}

Connection::~Connection() = default;

Connection* Connection::accept(uv_stream_t* server, int& error) {
  auto* connection = new Connection();
  error = uv_pipe_init(server->loop, &connection->pipe_, 0);
  if (error != 0) {
    delete connection;
    return nullptr;
  }
  connection->pipe_.data = connection;
  error = uv_accept(server, reinterpret_cast<uv_stream_t*>(&connection->pipe_));
  if (error == 0) {
    uv_os_fd_t fd;
    error = uv_fileno(reinterpret_cast<uv_handle_t*>(&connection->pipe_), &fd);
    if (error == 0) {
      struct ucred cred {};
      socklen_t len = sizeof cred;
      if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        error = -errno;
      } else {
        connection->peer_ = {cred.pid, cred.uid};
      }
    }
  }
  if (error != 0) {
    connection->close_handle();
    return nullptr;
  }
  return connection;
}

void Connection::start(std::unique_ptr<ConnectionDelegate> delegate) {
  delegate_ = std::move(delegate);
  update_reading();
}

void Connection::update_reading() {
  if (handle_closed_) return;
  bool want = !eof_ && !closing_ && !held_ && queued_bytes_ < limits::kMaxQueuedWriteBytes;
  if (want && !reading_) {
    reading_ = uv_read_start(reinterpret_cast<uv_stream_t*>(&pipe_), on_alloc, on_read) == 0;
  } else if (!want && reading_) {
    uv_read_stop(reinterpret_cast<uv_stream_t*>(&pipe_));
    reading_ = false;
  }
}

void Connection::write(std::string_view bytes) {
  if (closing_ || handle_closed_ || bytes.empty()) return;
  auto* stream = reinterpret_cast<uv_stream_t*>(&pipe_);
  // Try the socket first: most answers fit its buffer and need no allocation.
  if (queued_bytes_ == 0) {
    uv_buf_t buf =
        uv_buf_init(const_cast<char*>(bytes.data()), static_cast<unsigned>(bytes.size()));
    int written = uv_try_write(stream, &buf, 1);
    if (written > 0) bytes.remove_prefix(static_cast<std::size_t>(written));
    if (bytes.empty()) return;
  }
  auto* request = new WriteRequest{{}, std::string(bytes)};
  request->req.data = this;
  uv_buf_t buf = uv_buf_init(request->data.data(), static_cast<unsigned>(request->data.size()));
  if (uv_write(&request->req, stream, &buf, 1, on_write) != 0) {
    delete request;
    close_handle();
    return;
  }
  queued_bytes_ += request->data.size();
  update_reading();
}

void Connection::close() {
  if (closing_) return;
  closing_ = true;
  update_reading();
  if (queued_bytes_ == 0) close_handle();
}

void Connection::close_handle() {
  if (handle_closed_) return;
  handle_closed_ = true;
  closing_ = true;
  uv_close(reinterpret_cast<uv_handle_t*>(&pipe_), on_close);
}

void Connection::on_alloc(uv_handle_t*, std::size_t, uv_buf_t* buf) {
  *buf = uv_buf_init(g_read_buffer, kReadBufferBytes);
}

void Connection::on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<Connection*>(stream->data);
  try {
    if (nread > 0) {
      if (!self->closing_ && self->delegate_) {
        self->delegate_->on_data(*self,
                                 std::string_view(buf->base, static_cast<std::size_t>(nread)));
      }
    } else if (nread == UV_EOF) {
      self->eof_ = true;
      self->update_reading();
      if (self->delegate_) {
        self->delegate_->on_eof(*self);
      } else {
        self->close();
      }
    } else if (nread < 0) {
      self->close_handle();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: connection %llu: %s\n",
                 static_cast<unsigned long long>(self->id_), e.what());
    self->close_handle();
  } catch (...) {
    self->close_handle();
  }
}

void Connection::on_write(uv_write_t* req, int status) {
  auto* request = reinterpret_cast<WriteRequest*>(req);
  auto* self = static_cast<Connection*>(req->data);
  self->queued_bytes_ -= request->data.size();
  delete request;
  if (status != 0) {
    self->close_handle();
    return;
  }
  if (self->closing_ && self->queued_bytes_ == 0) {
    self->close_handle();
    return;
  }
  try {
    if (!self->closing_ && self->delegate_ && self->queued_bytes_ < limits::kMaxQueuedWriteBytes) {
      self->delegate_->on_writable(*self);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: connection %llu: %s\n",
                 static_cast<unsigned long long>(self->id_), e.what());
    self->close_handle();
    return;
  } catch (...) {
    self->close_handle();
    return;
  }
  self->update_reading();
}

void Connection::on_close(uv_handle_t* handle) {
  auto* self = static_cast<Connection*>(handle->data);
  try {
    if (self->delegate_) self->delegate_->on_closed(*self);
    if (self->on_released) self->on_released(*self);
  } catch (...) {
    // Nothing may cross into libuv; the connection is gone either way.
  }
  delete self;
}

}  // namespace mission::loop
