#include "cli/daemon_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shared/bounded_json.hpp"
#include "shared/control_protocol.hpp"
#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"
#include "shared/version.hpp"

namespace mission::cli {
namespace {

MissionError lost_daemon(const std::string& what) {
  return MissionError(ErrorCode::daemon_unavailable, "lost the connection to missiond: " + what,
                      "check 'mission daemon status' and the daemon log (missiond.log in the "
                      "state dir)");
}

}  // namespace

std::optional<DaemonClient> DaemonClient::connect(const std::filesystem::path& socket) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string path = socket.string();
  if (path.size() >= sizeof address.sun_path) {
    throw MissionError(ErrorCode::invalid_argument, "socket path is too long: " + path,
                       "choose a shorter --socket or MISSION_RUNTIME_DIR");
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    throw MissionError(ErrorCode::internal, std::string("socket: ") + std::strerror(errno));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    int error = errno;
    ::close(fd);
    if (error == ENOENT || error == ECONNREFUSED) return std::nullopt;
    throw MissionError(ErrorCode::daemon_unavailable,
                       "cannot connect to " + path + ": " + std::strerror(error),
                       error == EACCES ? "the socket belongs to another user; use your own "
                                         "runtime dir or --socket"
                                       : "check 'mission daemon status'");
  }
  DaemonClient client(fd);
  const std::int64_t id = client.next_id_++;
  client.send_line(jsonrpc::to_line(
      jsonrpc::request(id, "hello",
                       {{"protocol", kControlProtocolVersion},
                        {"client", {{"name", "mission"}, {"version", std::string(kVersion)}}}})));
  client.pending_hello_ = id;
  return client;
}

DaemonClient::DaemonClient(DaemonClient&& other) noexcept
    : fd_(other.fd_),
      daemon_pid_(other.daemon_pid_),
      next_id_(other.next_id_),
      buffer_(std::move(other.buffer_)),
      pending_hello_(other.pending_hello_),
      early_events_(std::move(other.early_events_)) {
  other.fd_ = -1;
}

DaemonClient::~DaemonClient() {
  if (fd_ >= 0) ::close(fd_);
}

void DaemonClient::send_line(const std::string& line) {
  std::size_t sent = 0;
  while (sent < line.size()) {
    ssize_t n = ::send(fd_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw lost_daemon(std::strerror(errno));
    }
    sent += static_cast<std::size_t>(n);
  }
}

std::string DaemonClient::read_line_within(int timeout_ms) {
  for (;;) {
    if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    if (buffer_.size() > limits::kMaxFrameBytes) throw lost_daemon("reply exceeds the frame limit");
    pollfd pfd{fd_, POLLIN, 0};
    int ready = ::poll(&pfd, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      throw MissionError(ErrorCode::daemon_unavailable,
                         "missiond did not answer within " +
                             std::to_string(limits::kRequestTimeoutMs / 1000) + " s",
                         "check the daemon log (missiond.log in the state dir)");
    }
    char chunk[16384];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw lost_daemon(std::strerror(errno));
    if (n == 0) throw lost_daemon("the daemon closed the connection");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

void DaemonClient::finish_hello() {
  if (!pending_hello_) return;
  const std::int64_t id = *pending_hello_;
  pending_hello_.reset();
  daemon_pid_ = read_reply(id).value("pid", 0L);
}

long DaemonClient::daemon_pid() {
  finish_hello();
  return daemon_pid_;
}

nlohmann::json DaemonClient::call(std::string_view method, const nlohmann::json& params) {
  const std::int64_t id = next_id_++;
  send_line(jsonrpc::to_line(jsonrpc::request(id, method, params)));
  // A failed hello (say, a protocol mismatch) is the error to report, not
  // the handshake_required that the request behind it then gets.
  finish_hello();
  return read_reply(id);
}

nlohmann::json DaemonClient::read_event() {
  if (!early_events_.empty()) {
    nlohmann::json event = std::move(early_events_.front());
    early_events_.pop_front();
    return event;
  }
  for (;;) {
    nlohmann::json message = parse_json_or_discarded(read_line_within(-1));
    if (message.is_discarded() || !message.is_object()) throw lost_daemon("unreadable event");
    if (message.value("method", "") == "event") {
      return message.value("params", nlohmann::json::object());
    }
  }
}

nlohmann::json DaemonClient::read_reply(std::int64_t id) {
  for (;;) {
    nlohmann::json reply = parse_json_or_discarded(read_line());
    if (reply.is_discarded() || !reply.is_object()) throw lost_daemon("unreadable reply");
    if (reply.value("method", "") == "event") {
      early_events_.push_back(reply.value("params", nlohmann::json::object()));
      continue;
    }
    // Replies to other ids (none are expected) and other notifications are skipped.
    if (!reply.contains("id") || reply.at("id") != id) continue;
    if (reply.contains("error")) {
      const auto& error = reply.at("error");
      if (error.contains("data") && error.at("data").is_object() &&
          error.at("data").contains("code")) {
        throw MissionError::from_payload(error.at("data"));
      }
      throw MissionError(ErrorCode::internal, error.value("message", "unknown error"));
    }
    return reply.value("result", nlohmann::json::object());
  }
}

}  // namespace mission::cli
