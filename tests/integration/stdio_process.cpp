#include "integration/stdio_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <thread>

#include "integration/harness.hpp"

namespace mission::test {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

StdioProcess::StdioProcess(const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& env, const std::string& cwd) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  REQUIRE(::pipe2(in_pipe, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(out_pipe, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(err_pipe, O_CLOEXEC) == 0);
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = make_environment(env);
  std::vector<char*> c_args, c_env;
  for (auto& text : args) c_args.push_back(text.data());
  c_args.push_back(nullptr);
  for (auto& text : environment) c_env.push_back(text.data());
  c_env.push_back(nullptr);
  pid_ = ::fork();
  REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execve(c_args[0], c_args.data(), c_env.data());
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  stdin_fd_ = in_pipe[1];
  stdout_fd_ = out_pipe[0];
  stderr_fd_ = err_pipe[0];
  ::fcntl(stderr_fd_, F_SETFL, O_NONBLOCK);
}

StdioProcess::~StdioProcess() {
  if (!exit_code_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_}) {
    if (fd >= 0) ::close(fd);
  }
}

void StdioProcess::send_raw(std::string_view bytes) {
  REQUIRE(stdin_fd_ >= 0);
  while (!bytes.empty()) {
    ssize_t n = ::write(stdin_fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    REQUIRE(n > 0);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::optional<std::string> StdioProcess::next_line(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout * kWaitScale;
  for (;;) {
    if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) FAIL("no stdout line within the timeout; stderr: " << stderr_text());
    pollfd pfd{stdout_fd_, POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string StdioProcess::read_raw_line(std::chrono::milliseconds timeout) {
  auto line = next_line(timeout);
  if (!line) FAIL("stdout closed; stderr: " << stderr_text());
  return *line;
}

std::optional<nlohmann::json> StdioProcess::read(std::chrono::milliseconds timeout) {
  auto line = next_line(timeout);
  if (!line) return std::nullopt;
  INFO("stdout line: " << *line);
  return nlohmann::json::parse(*line);
}

nlohmann::json StdioProcess::request(int id, const std::string& method,
                                     const nlohmann::json& params) {
  send(nlohmann::json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  auto reply = read();
  REQUIRE(reply.has_value());
  CHECK(reply->value("id", nlohmann::json()) == id);
  return *reply;
}

bool StdioProcess::silent_for(std::chrono::milliseconds quiet) {
  if (!buffer_.empty()) return false;
  pollfd pfd{stdout_fd_, POLLIN, 0};
  return ::poll(&pfd, 1, static_cast<int>(quiet.count())) == 0;
}

void StdioProcess::close_stdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

std::optional<int> StdioProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (exit_code_) return exit_code_;
  const auto deadline = Clock::now() + timeout * kWaitScale;
  while (Clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_code_;
    }
    drain_stderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return std::nullopt;
}

void StdioProcess::drain_stderr() {
  char chunk[4096];
  for (;;) {
    ssize_t n = ::read(stderr_fd_, chunk, sizeof chunk);
    if (n <= 0) return;
    stderr_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string StdioProcess::stderr_text() {
  drain_stderr();
  return stderr_;
}

}  // namespace mission::test
