#include "daemon/loop/listener.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace mission::loop {
namespace {

// A delegate that writes nothing and closes at once: for refused peers.
class RefusedDelegate : public ConnectionDelegate {
 public:
  void on_data(Connection&, std::string_view) override {}
};

}  // namespace

Listener::Listener(uv_loop_t* loop, DelegateFactory factory)
    : loop_(loop), factory_(std::move(factory)) {
  uv_pipe_init(loop_, &server_, 0);
  server_.data = this;
}

Listener::~Listener() {
  for (Connection* connection : connections_) connection->on_released = nullptr;
}

int Listener::listen(const std::filesystem::path& path) {
  // Bind under a tight umask so the socket is never reachable by others,
  // not even between bind and chmod.
  mode_t old_mask = umask(0177);
  int rc = uv_pipe_bind(&server_, path.c_str());
  umask(old_mask);
  if (rc != 0) return rc;
  if (chmod(path.c_str(), 0600) != 0) return -errno;
  rc = uv_listen(reinterpret_cast<uv_stream_t*>(&server_), SOMAXCONN, on_connection);
  listening_ = rc == 0;
  return rc;
}

void Listener::stop_accepting() {
  if (closed_) return;
  closed_ = true;
  uv_close(reinterpret_cast<uv_handle_t*>(&server_), nullptr);
}

void Listener::close_connections() {
  // Copy: close() may release a connection synchronously in a later callback.
  std::vector<Connection*> live(connections_.begin(), connections_.end());
  for (Connection* connection : live) connection->close();
  if (connections_.empty() && on_idle) on_idle();
}

void Listener::abort_connections() {
  std::vector<Connection*> live(connections_.begin(), connections_.end());
  for (Connection* connection : live) connection->abort();
}

void Listener::on_connection(uv_stream_t* server, int status) {
  auto* self = static_cast<Listener*>(server->data);
  if (status < 0) {
    std::fprintf(stderr, "missiond: accept failed: %s\n", uv_strerror(status));
    return;
  }
  try {
    self->accept_one();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: accept failed: %s\n", e.what());
  } catch (...) {
  }
}

std::size_t Listener::open_connections() const {
  std::size_t open = 0;
  for (const Connection* connection : connections_) open += connection->closing() ? 0 : 1;
  return open;
}

bool Listener::make_room(const Connection* arriving) {
  // The oldest connection that never completed its handshake goes: a flood
  // of idle connections must not lock real clients out.
  Connection* oldest = nullptr;
  for (Connection* held : connections_) {
    if (held == arriving || held->closing() || held->delegate() == nullptr ||
        !held->delegate()->evictable()) {
      continue;
    }
    if (oldest == nullptr || held->id() < oldest->id()) oldest = held;
  }
  if (oldest == nullptr) return false;
  ++evicted_;
  oldest->write(refusal("closed to make room: the daemon holds its most connections",
                        "send hello as soon as you connect"));
  oldest->abort();
  return true;
}

std::string Listener::refusal(const std::string& why, const std::string& hint) const {
  return refusal_ ? refusal_(why, hint) : std::string();
}

std::string Listener::descriptors_short(Connection& connection) {
  uv_os_fd_t fd = -1;
  rlimit limit{};
  if (connection.fileno(fd) != 0 || ::getrlimit(RLIMIT_NOFILE, &limit) != 0 ||
      limit.rlim_cur == RLIM_INFINITY || static_cast<rlim_t>(fd) + kReservedFds < limit.rlim_cur) {
    warned_fds_ = false;
    return {};
  }
  std::string why = "out of file descriptors: fd " + std::to_string(fd) + " of a limit of " +
                    std::to_string(limit.rlim_cur) + ", the last " + std::to_string(kReservedFds) +
                    " kept for the database, logs and agents";
  if (!warned_fds_) {
    warned_fds_ = true;  // once per episode
    std::fprintf(stderr, "missiond: refusing connections: %s (too many open files)\n", why.c_str());
  }
  return why;
}

void Listener::accept_one() {
  int error = 0;
  Connection* connection = Connection::accept(reinterpret_cast<uv_stream_t*>(&server_), error);
  if (connection == nullptr) {
    std::fprintf(stderr, "missiond: accept failed: %s\n", uv_strerror(error));
    return;
  }
  connections_.insert(connection);
  connection->on_released = [this](Connection& released) {
    connections_.erase(&released);
    if (connections_.empty() && on_idle) on_idle();
  };
  if (connection->peer().uid != getuid()) {
    ++refused_;
    std::fprintf(
        stderr, "missiond: refused connection from uid %u (pid %d): not the daemon's uid\n",
        static_cast<unsigned>(connection->peer().uid), static_cast<int>(connection->peer().pid));
    connection->start(std::make_unique<RefusedDelegate>());
    connection->close();
    return;
  }
  if (std::string why = descriptors_short(*connection); !why.empty()) {
    ++refused_;
    connection->start(std::make_unique<RefusedDelegate>());
    connection->write(refusal(why,
                              "close idle clients, or raise the open-file limit (ulimit -n) "
                              "of missiond"));
    connection->close();
    return;
  }
  if (open_connections() > max_connections_ && !make_room(connection)) {
    ++refused_;
    if (!warned_full_) {
      warned_full_ = true;  // once per episode: a flood must not flood the log
      std::fprintf(stderr, "missiond: refusing connections: %zu open, the limit\n",
                   max_connections_);
    }
    connection->start(std::make_unique<RefusedDelegate>());
    connection->write(refusal(
        "the daemon already holds " + std::to_string(max_connections_) + " connections, its limit",
        "close idle clients, or start missiond with a larger --max-connections"));
    connection->close();
    return;
  }
  warned_full_ = false;
  connection->start(factory_(*connection));
}

}  // namespace mission::loop
