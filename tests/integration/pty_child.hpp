#pragma once
// One process on a pseudo-terminal a test opens, as a person's terminal:
// what it draws kept in a screen model of the terminal's size, keys typed
// into it, its exit awaited.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/terminal/screen.hpp"
#include "integration/harness.hpp"

namespace mission::test {

using namespace std::chrono_literals;

// One process on a pseudo-terminal of the test's, what it drew kept in a
// screen model of the same size.
class PtyChild {
 public:
  PtyChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
           unsigned short rows = 24, unsigned short columns = 80)
      : screen_(rows, columns) {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    REQUIRE(master_ >= 0);
    REQUIRE(::grantpt(master_) == 0);
    REQUIRE(::unlockpt(master_) == 0);
    std::string slave_path = ::ptsname(master_);
    set_size(rows, columns);
    std::vector<std::string> environment = make_environment(env);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::setsid();
      int slave = ::open(slave_path.c_str(), O_RDWR);
      ::ioctl(slave, TIOCSCTTY, 0);
      for (int fd = 0; fd < 3; ++fd) ::dup2(slave, fd);
      std::vector<char*> args;
      for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      std::vector<char*> envp;
      for (const auto& entry : environment) envp.push_back(const_cast<char*>(entry.c_str()));
      envp.push_back(nullptr);
      ::execve(args[0], args.data(), envp.data());
      ::_exit(127);
    }
  }
  ~PtyChild() {
    if (!exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(master_);
  }

  void set_size(unsigned short rows, unsigned short columns) {
    struct winsize size {};
    size.ws_row = rows;
    size.ws_col = columns;
    ::ioctl(master_, TIOCSWINSZ, &size);
    screen_.resize(rows, columns);
  }

  void type(std::string_view keys) {
    REQUIRE(::write(master_, keys.data(), keys.size()) == static_cast<ssize_t>(keys.size()));
  }

  // Reads until `done` holds for the screen's text, or fails after `timeout`
  // (scaled for the slow build).
  void wait_for(const std::function<bool(const std::string&)>& done,
                std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout * kWaitScale;
    while (!done(screen_.text())) {
      if (std::chrono::steady_clock::now() > deadline) {
        FAIL("timed out; the screen shows:\n" << screen_.text() << "\nraw output: " << raw_);
      }
      pump(50);
    }
  }
  // Whether `text` shows within `timeout` (scaled for the slow build),
  // without failing.
  bool shows_within(const std::string& text, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout * kWaitScale;
    while (screen_.text().find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      pump(20);
    }
    return true;
  }
  void wait_for_text(const std::string& text) {
    wait_for([&](const std::string& screen) { return screen.find(text) != std::string::npos; });
  }

  // The exit code once the process has ended (its output drained).
  int wait_exit(std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout * kWaitScale;
    for (;;) {
      pump(20);
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        pump(50);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      if (std::chrono::steady_clock::now() > deadline)
        FAIL("the process did not exit; screen:\n" << screen_.text());
    }
  }

  const std::string& raw() const { return raw_; }
  const mission::daemon::terminal::Screen& screen() const { return screen_; }
  // Row `row` (0-based) of the screen.
  std::string row(int row) const {
    std::string text = screen_.text() + "\n";
    std::size_t start = 0;
    for (int i = 0; i < row; ++i) {
      start = text.find('\n', start);
      if (start == std::string::npos) return {};
      ++start;
    }
    return text.substr(start, text.find('\n', start) - start);
  }

 private:
  void pump(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return;
    char buffer[65536];
    ssize_t n = ::read(master_, buffer, sizeof buffer);
    if (n > 0) {
      raw_.append(buffer, static_cast<std::size_t>(n));
      screen_.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    }
  }

  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string raw_;
  mission::daemon::terminal::Screen screen_;
};

}  // namespace mission::test
