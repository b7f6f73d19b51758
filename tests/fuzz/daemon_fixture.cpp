#include "tests/fuzz/daemon_fixture.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <thread>

#include "daemon/daemon.hpp"
#include "shared/bounded_json.hpp"

// LeakSanitizer's suppressions for the daemon inside the fuzzing process.
// libgit2's one-time setup (through libssh2) has OpenSSL allocate the error
// state of the thread that calls it first, a pool thread of the daemon,
// which runs until the process exits: the leak check at exit finds that
// state held only by a live thread's TLS. The stack of the report ends in
// libcrypto (no frame pointers there), and mission itself never calls
// OpenSSL, so the whole library is left out.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcrypto.so\n";
}

namespace mission::fuzz {
namespace {

namespace fs = std::filesystem;

// Longer than any one fuzzed input should take, even under the sanitizers;
// past it the input is a hang.
constexpr int kExchangeTimeoutMs = 20000;
constexpr std::size_t kMaxReplyBytes = 64 * 1024 * 1024;

fs::path* g_root = nullptr;

void remove_root() {
  std::error_code ignored;
  if (g_root != nullptr) fs::remove_all(*g_root, ignored);
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz fixture: %s\n", what);
  __builtin_trap();
}

int connect_to(const fs::path& socket_path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket() failed");
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  for (int attempt = 0;; ++attempt) {
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) break;
    // The listen backlog may be full for a moment under load.
    if ((errno != EAGAIN && errno != ECONNREFUSED) || attempt == 200)
      fail("cannot connect to the daemon");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

}  // namespace

DaemonFixture& DaemonFixture::get() {
  static DaemonFixture* fixture = new DaemonFixture();
  return *fixture;
}

DaemonFixture::DaemonFixture() {
  std::signal(SIGPIPE, SIG_IGN);
  std::string pattern = (fs::temp_directory_path() / "mission-fuzz-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) fail("mkdtemp failed");
  root_ = pattern;
  g_root = new fs::path(root_);
  std::atexit(remove_root);
  work_dir_ = root_ / "work";
  fs::create_directories(work_dir_ / "src");
  std::ofstream(work_dir_ / "README") << "a tree for fuzzed requests\n";
  std::ofstream(work_dir_ / "src" / "main.c") << "int main(void) { return 0; }\n";

  RuntimePaths paths;
  paths.runtime_dir = root_ / "run";
  paths.state_dir = root_ / "state";
  paths.socket = paths.runtime_dir / "daemon.sock";
  socket_ = paths.socket;
  auto* daemon = new daemon::Daemon(paths);
  try {
    daemon->start();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fuzz fixture: the daemon did not start: %s\n", error.what());
    std::abort();
  }
  // Runs until the process exits; the daemon is never freed, so nothing it
  // holds is a leak.
  std::thread([daemon] { daemon->run(); }).detach();
}

std::vector<std::string> DaemonFixture::exchange(std::string_view bytes) {
  int fd = connect_to(socket_);
  std::string received;
  std::size_t written = 0;
  bool sending = true;
  if (bytes.empty()) {
    ::shutdown(fd, SHUT_WR);
    sending = false;
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kExchangeTimeoutMs);
  for (;;) {
    pollfd poll_fd{fd, static_cast<short>(POLLIN | (sending ? POLLOUT : 0)), 0};
    int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    deadline - std::chrono::steady_clock::now())
                                    .count());
    if (left <= 0) fail("the daemon neither answered nor closed the connection in time");
    if (::poll(&poll_fd, 1, left) < 0) {
      if (errno == EINTR) continue;
      fail("poll failed");
    }
    if (sending && (poll_fd.revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::send(fd, bytes.data() + written, bytes.size() - written, MSG_NOSIGNAL);
      if (n > 0) written += static_cast<std::size_t>(n);
      // The daemon may close first (a refused frame, a closed session).
      if ((n < 0 && errno != EAGAIN) || written == bytes.size()) {
        ::shutdown(fd, SHUT_WR);
        sending = false;
      }
    }
    if (poll_fd.revents & (POLLIN | POLLHUP | POLLERR)) {
      char buffer[65536];
      ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
      if (n > 0) received.append(buffer, static_cast<std::size_t>(n));
      if (received.size() > kMaxReplyBytes) fail("the daemon sent more than 64 MiB for one input");
    }
  }
  ::close(fd);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < received.size()) {
    std::size_t end = received.find('\n', start);
    if (end == std::string::npos) fail("a reply did not end with a newline");
    lines.emplace_back(received, start, end - start);
    start = end + 1;
  }
  return lines;
}

Connection::Connection(const fs::path& socket) : fd_(connect_to(socket)) {}

Connection::~Connection() {
  ::close(fd_);
}

bool Connection::pump(short events) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kExchangeTimeoutMs);
  for (;;) {
    pollfd poll_fd{fd_, events, 0};
    int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    deadline - std::chrono::steady_clock::now())
                                    .count());
    if (left <= 0) fail("the daemon took no line and sent none in time");
    int ready = ::poll(&poll_fd, 1, left);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) fail("poll failed");
    if (ready == 0) continue;
    if (poll_fd.revents & (POLLIN | POLLHUP | POLLERR)) {
      char buffer[65536];
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        closed_ = true;
        return false;
      }
      if (n > 0) received_.append(buffer, static_cast<std::size_t>(n));
      if (received_.size() > kMaxReplyBytes) fail("the daemon sent more than 64 MiB unread");
    }
    return true;
  }
}

bool Connection::write(std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    if (closed_) return false;
    ssize_t n = ::send(fd_, bytes.data() + written, bytes.size() - written, MSG_NOSIGNAL);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    // The socket is full: the daemon may be writing to us and waiting.
    if (!pump(POLLIN | POLLOUT)) return false;
  }
  return true;
}

std::optional<std::string> Connection::read_line() {
  for (;;) {
    std::size_t end = received_.find('\n');
    if (end != std::string::npos) {
      std::string line = received_.substr(0, end);
      received_.erase(0, end + 1);
      return line;
    }
    if (closed_ || !pump(POLLIN)) return std::nullopt;
  }
}

void DaemonFixture::check_alive() {
  auto lines =
      exchange(std::string(kHello) +
               "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"daemon.status\",\"params\":{}}\n");
  if (lines.size() != 2) fail("daemon.status got no answer");
  nlohmann::json status = parse_json_or_discarded(lines[1]);
  if (!status.is_object() || !status.contains("result")) fail("daemon.status failed");
}

std::string tame_frames(std::string_view input, const fs::path& work_dir,
                        bool (*dropped)(std::string_view method, std::string_view tool)) {
  auto tame_object = [&](nlohmann::json& message) -> bool {  // false: drop it
    if (!message.is_object()) return true;
    auto method = message.find("method");
    if (method == message.end() || !method->is_string()) return true;
    std::string tool;
    auto params = message.find("params");
    nlohmann::json* arguments = nullptr;
    if (params != message.end() && params->is_object()) {
      auto name = params->find("name");
      if (name != params->end() && name->is_string()) tool = name->get<std::string>();
      auto found = params->find("arguments");
      if (found != params->end() && found->is_object()) arguments = &*found;
    }
    if (dropped(method->get_ref<const std::string&>(), tool)) return false;
    for (nlohmann::json* object : {params != message.end() ? &*params : nullptr, arguments}) {
      if (object == nullptr || !object->is_object()) continue;
      for (auto& [key, value] : object->items()) {
        bool names_a_place = key == "cwd" || key == "root" || key == "directory" ||
                             (key.size() >= 4 && key.compare(key.size() - 4, 4, "path") == 0);
        if (names_a_place && value.is_string()) value = work_dir.string();
      }
    }
    return true;
  };
  std::string out;
  std::size_t start = 0;
  while (start < input.size()) {
    std::size_t end = input.find('\n', start);
    bool complete = end != std::string_view::npos;
    std::string_view line = input.substr(start, complete ? end - start : std::string_view::npos);
    start = complete ? end + 1 : input.size();
    nlohmann::json message = parse_json_or_discarded(line);
    if (message.is_object() || message.is_array()) {
      nlohmann::json before = message;
      if (message.is_object()) {
        if (!tame_object(message)) continue;
      } else {
        nlohmann::json kept = nlohmann::json::array();
        for (auto& element : message) {
          if (tame_object(element)) kept.push_back(std::move(element));
        }
        message = std::move(kept);
      }
      if (message != before) {
        out += message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (complete) out += '\n';
        continue;
      }
    }
    out.append(line);
    if (complete) out += '\n';
  }
  return out;
}

void check_replies(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    nlohmann::json reply = parse_json_or_discarded(line);
    if (reply.is_array()) {
      // An MCP batch's replies.
      for (const auto& element : reply) {
        if (!element.is_object() || element.value("jsonrpc", "") != "2.0")
          fail("a batch reply is not JSON-RPC 2.0");
      }
      continue;
    }
    if (!reply.is_object() || !reply.contains("jsonrpc") || reply["jsonrpc"] != "2.0") {
      std::fprintf(stderr, "reply: %.300s\n", line.c_str());
      fail("a reply line is not a JSON-RPC 2.0 message");
    }
  }
}

}  // namespace mission::fuzz
