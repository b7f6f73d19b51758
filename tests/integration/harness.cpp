#include "integration/harness.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "shared/control_protocol.hpp"

extern char** environ;

namespace mission::test {

std::vector<std::string> make_environment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string text = *entry;
    std::string name = text.substr(0, text.find('='));
    if (overrides.count(name) == 0) env.push_back(text);
  }
  for (const auto& [name, value] : overrides) env.push_back(name + "=" + value);
  // Every daemon a test starts checks each control reply against its
  // method's result schema (docs/adr/0055): a renamed key fails the test
  // that met it.
  if (overrides.count("MISSIOND_CHECK_RESULTS") == 0 &&
      std::getenv("MISSIOND_CHECK_RESULTS") == nullptr)
    env.push_back("MISSIOND_CHECK_RESULTS=1");
  return env;
}

namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

std::map<std::string, std::string> Instance::env() const {
  return {{"MISSION_RUNTIME_DIR", runtime_dir().string()},
          {"MISSION_STATE_DIR", state_dir().string()},
          {"MISSION_DAEMON_BIN", MISSIOND_PATH},
          {"MISSION_SOCKET", ""},
          {"NO_COLOR", "1"}};
}

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env,
                          std::chrono::milliseconds timeout) {
  int out_pipe[2];
  int err_pipe[2];
  REQUIRE(::pipe2(out_pipe, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(err_pipe, O_CLOEXEC) == 0);
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = make_environment(env);
  auto c_args = c_strings(args);
  auto c_env = c_strings(environment);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::execve(c_args[0], c_args.data(), c_env.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ProcessResult result;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_count = 2;
  const auto deadline = Clock::now() + timeout * kWaitScale;
  while (open_count > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      FAIL("timed out: " << argv[0] << " ...; stderr so far: " << result.err);
    }
    int ready = ::poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char chunk[65536];
      ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
      if (n > 0) {
        sinks[i]->append(chunk, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
  // Both pipes are closed, but a daemonizing child may hold none of them and
  // still be running; wait for it within what is left of the timeout.
  int status = 0;
  for (;;) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      FAIL("timed out waiting for exit: " << argv[0]);
    }
    std::this_thread::sleep_for(1ms);
  }
  result.exit_code = decode_status(status);
  return result;
}

ProcessResult run_mission(const Instance& instance, const std::vector<std::string>& args) {
  std::vector<std::string> argv{MISSION_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, instance.env());
}

DaemonProcess::DaemonProcess(const Instance& instance, std::vector<std::string> extra_args,
                             std::string binary) {
  int ready_pipe[2];
  REQUIRE(::pipe2(ready_pipe, O_CLOEXEC) == 0);
  stderr_path_ =
      instance.root.path() / ("missiond-" + std::to_string(::getpid()) + "-" +
                              std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".stderr");
  std::vector<std::string> args{std::move(binary), "--ready-fd", std::to_string(ready_pipe[1])};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<std::string> environment = make_environment(instance.env());
  auto c_args = c_strings(args);
  auto c_env = c_strings(environment);
  pid_ = ::fork();
  REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    int err_fd = ::open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(err_fd, STDERR_FILENO);
    ::fcntl(ready_pipe[1], F_SETFD, 0);
    ::execve(c_args[0], c_args.data(), c_env.data());
    ::_exit(127);
  }
  ::close(ready_pipe[1]);
  const auto deadline = Clock::now() + 10s * kWaitScale;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    REQUIRE(left.count() > 0);
    pollfd pfd{ready_pipe[0], POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[512];
    ssize_t n = ::read(ready_pipe[0], chunk, sizeof chunk);
    if (n <= 0) break;
    readiness_.append(chunk, static_cast<std::size_t>(n));
    if (readiness_.find('\n') != std::string::npos) break;
  }
  ::close(ready_pipe[0]);
  if (auto newline = readiness_.find('\n'); newline != std::string::npos)
    readiness_.resize(newline);
}

DaemonProcess::~DaemonProcess() {
  if (!exit_code_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

void DaemonProcess::signal(int signum) {
  ::kill(pid_, signum);
}

std::optional<int> DaemonProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (exit_code_) return exit_code_;
  const auto deadline = Clock::now() + timeout * kWaitScale;
  while (Clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = decode_status(status);
      return exit_code_;
    }
    std::this_thread::sleep_for(2ms);
  }
  return std::nullopt;
}

std::string DaemonProcess::stderr_text() const {
  return read_file(stderr_path_);
}

RawClient::RawClient(const fs::path& socket) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket.c_str(), sizeof address.sun_path - 1);
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

RawClient::~RawClient() {
  if (fd_ >= 0) ::close(fd_);
}

void RawClient::send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    REQUIRE(n > 0);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool RawClient::try_send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::optional<nlohmann::json> RawClient::read(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout * kWaitScale;
  for (;;) {
    if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return nlohmann::json::parse(line);
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) FAIL("no reply within the timeout");
    pollfd pfd{fd_, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string RawClient::read_bytes(std::chrono::milliseconds timeout) {
  if (buffer_.empty()) {
    pollfd pfd{fd_, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(timeout.count())) > 0) {
      char chunk[65536];
      ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n > 0) buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  std::string bytes;
  bytes.swap(buffer_);
  return bytes;
}

nlohmann::json RawClient::call(const std::string& method, const nlohmann::json& params) {
  int id = next_id_++;
  nlohmann::json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  send(request.dump() + "\n");
  auto reply = read();
  REQUIRE(reply.has_value());
  REQUIRE((*reply)["id"] == id);
  return *reply;
}

nlohmann::json RawClient::hello() {
  auto reply =
      call("hello", {{"protocol", kControlProtocolVersion}, {"client", {{"name", "test"}}}});
  REQUIRE(reply.contains("result"));
  return reply["result"];
}

bool RawClient::closed_by_peer(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout * kWaitScale;
  while (Clock::now() < deadline) {
    pollfd pfd{fd_, POLLIN, 0};
    if (::poll(&pfd, 1, 50) <= 0) continue;
    char chunk[4096];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) return true;
  }
  return false;
}

bool process_alive(pid_t pid) {
  // A zombie has exited; in a container nobody may reap the re-parented daemon.
  std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  auto after_name = stat.rfind(')');
  if (after_name == std::string::npos || after_name + 2 >= stat.size()) return false;
  return stat[after_name + 2] != 'Z';
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool open_session(RawClient& client, const std::string& execution_id, const std::string& token,
                  const fs::path& cwd) {
  if (!client.connected()) return false;
  client.hello();
  nlohmann::json attached = client.call(
      "mcp.attach", {{"agentExecutionId", execution_id}, {"token", token}, {"cwd", cwd.string()}});
  if (!attached.contains("result")) return false;
  client.send(nlohmann::json{{"jsonrpc", "2.0"},
                             {"id", 1},
                             {"method", "initialize"},
                             {"params",
                              {{"protocolVersion", "2025-06-18"},
                               {"capabilities", nlohmann::json::object()},
                               {"clientInfo", {{"name", "integration-test"}, {"version", "1"}}}}}}
                  .dump() +
              "\n");
  std::optional<nlohmann::json> initialized = client.read();
  if (!initialized || !initialized->contains("result")) return false;
  client.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
              "\n");
  return true;
}

ArmedFaults::ArmedFaults(const std::string& spec) {
  ::setenv("MISSIOND_TEST_FAULTS", spec.c_str(), 1);
}

ArmedFaults::~ArmedFaults() {
  ::unsetenv("MISSIOND_TEST_FAULTS");
}

}  // namespace mission::test
