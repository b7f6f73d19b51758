#include "cli/git_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"

extern char** environ;

namespace mission::cli {
namespace {

// Bytes of git's stderr kept for an error message.
constexpr std::size_t kKeptErrorBytes = 4096;

struct Pipe {
  int fds[2] = {-1, -1};
  ~Pipe() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  void open() {
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      throw MissionError(ErrorCode::internal, std::string("pipe: ") + std::strerror(errno));
    }
  }
  void close_end(int end) {
    if (fds[end] >= 0) ::close(fds[end]);
    fds[end] = -1;
  }
};

pid_t spawn_git(const std::string& dir, const std::vector<std::string>& args, Pipe& in, Pipe& out,
                Pipe& err) {
  std::vector<std::string> words = {"git", "-C", dir};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fds[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fds[1], STDERR_FILENO);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::string("cannot run git: ") + std::strerror(rc),
                       "install git, or put it on PATH");
  }
  return pid;
}

// Feeds `input` and drains both outputs at once, so neither side blocks on
// a full pipe whatever git writes.
void exchange(Pipe& in, Pipe& out, Pipe& err, const std::string& input, GitResult& result) {
  std::size_t written = 0;
  if (input.empty()) in.close_end(1);
  char chunk[65536];
  while (out.fds[0] >= 0 || err.fds[0] >= 0) {
    pollfd fds[3] = {{out.fds[0], POLLIN, 0}, {err.fds[0], POLLIN, 0}, {in.fds[1], POLLOUT, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      throw MissionError(ErrorCode::internal, std::string("poll: ") + std::strerror(errno));
    }
    if (fds[2].revents != 0) {
      ssize_t n = ::write(in.fds[1], input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      // git may stop reading early (EPIPE); what it answers says why.
      if (n < 0 || written == input.size()) in.close_end(1);
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      Pipe& pipe = i == 0 ? out : err;
      ssize_t n = ::read(pipe.fds[0], chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        pipe.close_end(0);
        continue;
      }
      std::string& text = i == 0 ? result.out : result.err;
      text.append(chunk, static_cast<std::size_t>(n));
      if (i == 1 && text.size() > kKeptErrorBytes) text.erase(0, text.size() - kKeptErrorBytes);
      if (i == 0 && text.size() > limits::kMaxGitOutputBytes) {
        throw MissionError(
            ErrorCode::payload_too_large,
            "git printed more than " + std::to_string(limits::kMaxGitOutputBytes >> 20) + " MiB",
            "narrow the range of commits");
      }
    }
  }
  in.close_end(1);
}

}  // namespace

GitResult run_git(const std::string& dir, const std::vector<std::string>& args,
                  const std::string& input) {
  Pipe in, out, err;
  in.open();
  out.open();
  err.open();
  const pid_t pid = spawn_git(dir, args, in, out, err);
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  GitResult result;
  // A git that exits before reading all its input must not end mission
  // with SIGPIPE; the write fails with EPIPE instead.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  try {
    exchange(in, out, err, input, result);
    ::sigaction(SIGPIPE, &previous, nullptr);
  } catch (...) {
    ::sigaction(SIGPIPE, &previous, nullptr);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string git_output(const std::string& dir, const std::vector<std::string>& args,
                       const std::string& hint, const std::string& input) {
  GitResult result = run_git(dir, args, input);
  if (result.exit_code != 0) {
    std::string message = result.err;
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    if (message.empty()) message = "exit " + std::to_string(result.exit_code);
    throw MissionError(ErrorCode::invalid_argument, "git " + args.front() + " failed: " + message,
                       hint);
  }
  return std::move(result.out);
}

int run_git_attached(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> words = {"git", "-C", dir};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, "git", nullptr, nullptr, argv.data(), environ);
  if (rc != 0) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::string("cannot run git: ") + std::strerror(rc),
                       "install git, or put it on PATH");
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace mission::cli
