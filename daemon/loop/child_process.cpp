#include "daemon/loop/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "shared/limits.hpp"

namespace mission::loop {
namespace {

// One read at a time happens on the loop thread, so children share a buffer.
constexpr std::size_t kReadBufferBytes = 64 * 1024;
char g_read_buffer[kReadBufferBytes];

// A pseudo-terminal hands out at most a few KiB per read (the line
// discipline's buffer), so under a burst every read would cost a turn of the
// loop, a log write and a viewer frame. A read of at least this many bytes
// means a burst: the terminal is read on, into the same buffer, until it has
// nothing more, the buffer is full or a read comes back short, and the whole
// is handled as one. A keystroke's echo is a short read and goes at once.
constexpr std::size_t kTerminalBurstReadBytes = 1024;

// How often the child is polled for its exit where there is no pidfd.
constexpr std::uint64_t kReapPollMs = 20;

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const auto& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// argv[0] as execvp in the child would find it: a name without '/' is
// looked up in the PATH of the child's environment (relative entries from
// its cwd). 0, or a negative uv code: UV_ENOENT, or UV_EACCES when only
// files it may not run were found.
int resolve_program(const ChildProcess::Options& options, std::string& program) {
  if (options.argv.empty() || options.argv.front().empty()) return UV_EINVAL;
  const std::string& file = options.argv.front();
  if (file.find('/') != std::string::npos) {
    program = file;
    return 0;
  }
  std::string_view search = "/bin:/usr/bin";  // execvp's default
  for (const auto& entry : options.env) {
    if (entry.rfind("PATH=", 0) == 0) search = std::string_view(entry).substr(5);
  }
  bool denied = false;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = search.find(':', start);
    std::string_view dir = search.substr(start, end == std::string_view::npos ? end : end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir.front() == '/' || options.cwd.empty()
                                ? std::string(dir) + "/" + file
                                : options.cwd + "/" + std::string(dir) + "/" + file;
    if (is_executable_file(candidate)) {
      program = candidate;
      return 0;
    }
    denied = denied || ::access(candidate.c_str(), F_OK) == 0;
    if (end == std::string_view::npos) return denied ? UV_EACCES : UV_ENOENT;
    start = end + 1;
  }
}

}  // namespace

ChildProcess* ChildProcess::spawn(uv_loop_t* loop, const Options& options, Callbacks callbacks,
                                  int& error) {
  std::string program;
  if (int rc = resolve_program(options, program); rc != 0) {
    error = rc;
    return nullptr;
  }
  const bool terminal = options.terminal_master >= 0;
  // Blocking for the child, which writes; our ends go non-blocking below.
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  if (!terminal) {
    if (int rc = uv_pipe(out, 0, 0); rc != 0) {
      error = rc;
      return nullptr;
    }
    if (int rc = uv_pipe(err, 0, 0); rc != 0) {
      ::close(out[0]);
      ::close(out[1]);
      error = rc;
      return nullptr;
    }
  }

  int in[2] = {-1, -1};
  const bool stdin_pipe = options.stdin_pipe && !terminal;
  if (stdin_pipe) {
    if (int rc = uv_pipe(in, 0, 0); rc != 0) {
      for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
      error = rc;
      return nullptr;
    }
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (terminal) {
    // glibc's posix_spawn runs setsid before the file actions, so this open
    // in a session leader without a terminal makes the pty its controlling
    // terminal: Ctrl-C there reaches the agent's foreground job.
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, options.terminal_path.c_str(), O_RDWR,
                                     0);
    posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDERR_FILENO);
  } else {
    if (stdin_pipe) {
      posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    } else {
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  }
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own session and process group: a stop signals the group, and the
  // child does not die with the daemon's terminal. Signals as a fresh
  // process has them: none blocked, none ignored (the daemon ignores
  // SIGPIPE, the agent must not inherit that).
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  auto argv = c_strings(options.argv);
  auto env = c_strings(options.env);
  pid_t pid = 0;
  int rc = 0;
  if (options.confine_spawning_thread) {
    // A thread of its own, joined at once: a restriction the kernel keeps
    // per thread cannot be lifted, so the thread ends with the spawn.
    std::thread spawner([&] {
      const int confined = options.confine_spawning_thread();
      rc = confined != 0 ? -confined
                         : ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(),
                                         env.data());
    });
    spawner.join();
  } else {
    rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), env.data());
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (!terminal) {
    ::close(out[1]);
    ::close(err[1]);
  }
  if (stdin_pipe) ::close(in[0]);
  if (rc != 0) {
    if (terminal) {
      ::close(options.terminal_master);
    } else {
      ::close(out[0]);
      ::close(err[0]);
    }
    if (stdin_pipe) ::close(in[1]);
    error = -rc;
    return nullptr;
  }

  auto* child = new ChildProcess();
  child->callbacks_ = std::move(callbacks);
  child->pid_ = pid;
  uv_pipe_init(loop, &child->out_, 0);
  uv_pipe_init(loop, &child->err_, 0);
  if (terminal) {
    // Read (and written) like a pipe; the end of the child's side reads as EIO.
    child->terminal_ = true;
    child->terminal_fd_ = options.terminal_master;
    uv_pipe_open(&child->out_, options.terminal_master);
    child->open_pipes_ = 1;
  } else {
    uv_pipe_open(&child->out_, out[0]);
    uv_pipe_open(&child->err_, err[0]);
  }
  uv_timer_init(loop, &child->drain_timer_);
  uv_timer_init(loop, &child->reap_timer_);
  child->open_handles_ = 4;
  for (uv_handle_t* handle :
       {reinterpret_cast<uv_handle_t*>(&child->out_), reinterpret_cast<uv_handle_t*>(&child->err_),
        reinterpret_cast<uv_handle_t*>(&child->drain_timer_),
        reinterpret_cast<uv_handle_t*>(&child->reap_timer_)}) {
    handle->data = child;
  }
  if (stdin_pipe) {
    uv_pipe_init(loop, &child->in_, 0);
    uv_pipe_open(&child->in_, in[1]);
    child->in_.data = child;
    child->has_stdin_ = true;
    ++child->open_handles_;
  }
  child->pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (child->pidfd_ >= 0 && uv_poll_init(loop, &child->exit_poll_, child->pidfd_) == 0) {
    child->exit_poll_.data = child;
    ++child->open_handles_;
    uv_poll_start(&child->exit_poll_, UV_READABLE, on_pidfd);
  } else {
    uv_timer_start(&child->reap_timer_, on_reap_timer, kReapPollMs, kReapPollMs);
  }
  uv_read_start(reinterpret_cast<uv_stream_t*>(&child->out_), on_alloc, on_read);
  if (!terminal) uv_read_start(reinterpret_cast<uv_stream_t*>(&child->err_), on_alloc, on_read);
  return child;
}

namespace {

struct TerminalWrite {
  uv_write_t request{};
  std::string bytes;
};

}  // namespace

void ChildProcess::write_terminal(std::string_view bytes) {
  if (!terminal_ || finished_ || bytes.empty() ||
      uv_is_closing(reinterpret_cast<uv_handle_t*>(&out_))) {
    return;
  }
  auto* write = new TerminalWrite{{}, std::string(bytes)};
  write->request.data = write;
  uv_buf_t buffer = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
  int rc =
      uv_write(&write->request, reinterpret_cast<uv_stream_t*>(&out_), &buffer, 1,
               [](uv_write_t* request, int) { delete static_cast<TerminalWrite*>(request->data); });
  if (rc != 0) delete write;
}

void ChildProcess::resize_terminal(unsigned short rows, unsigned short columns) {
  if (!terminal_ || finished_ || rows == 0 || columns == 0) return;
  struct winsize size {};
  size.ws_row = rows;
  size.ws_col = columns;
  ::ioctl(terminal_fd_, TIOCSWINSZ, &size);
}

int ChildProcess::write_stdin(std::string bytes) {
  if (!has_stdin_ || exited_ || finished_) return UV_EPIPE;
  struct Write {
    uv_write_t request;
    std::string bytes;
  };
  auto* write = new Write{{}, std::move(bytes)};
  uv_buf_t buffer = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
  int rc = uv_write(&write->request, reinterpret_cast<uv_stream_t*>(&in_), &buffer, 1,
                    [](uv_write_t* request, int) { delete reinterpret_cast<Write*>(request); });
  if (rc != 0) delete write;
  return rc;
}

std::size_t ChildProcess::queued_input_bytes() const {
  if (finished_) return 0;
  if (terminal_) return uv_stream_get_write_queue_size(reinterpret_cast<const uv_stream_t*>(&out_));
  if (has_stdin_) return uv_stream_get_write_queue_size(reinterpret_cast<const uv_stream_t*>(&in_));
  return 0;
}

int ChildProcess::signal_group(int signum) const {
  if (exited_ || pid_ <= 0) return 0;
  return ::kill(-pid_, signum) == 0 ? 0 : -errno;
}

namespace {

// Hands `fd`, the read end of an agent's pipe, to a `cat` of its own that
// reads it to EOF and drops what it reads: the daemon is going away, and an
// agent writing to a pipe nobody reads would die of SIGPIPE at its next
// line (ADR 0004: a daemon restart does not kill agents).
void hand_over_to_drainer(int fd) {
  // The flag belongs to the pipe, shared with the drainer, which must block.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  char program[] = "/bin/cat";
  char* argv[] = {program, nullptr};
  char* envp[] = {nullptr};
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, program, &actions, &attributes, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    std::fprintf(stderr,
                 "missiond: cannot keep an agent's output pipe open (%s): it may die of "
                 "SIGPIPE at its next line\n",
                 std::strerror(rc));
  }
  // The drainer is not reaped: the daemon is exiting, and init adopts it.
}

}  // namespace

void ChildProcess::release() {
  if (!exited_) {
    for (uv_pipe_t* pipe : {&out_, &err_}) {
      uv_os_fd_t fd = -1;
      if (uv_fileno(reinterpret_cast<uv_handle_t*>(pipe), &fd) == 0 && fd >= 0) {
        hand_over_to_drainer(fd);
      }
    }
  }
  callbacks_ = {};
  finished_ = true;
  for (uv_pipe_t* pipe : {&out_, &err_}) uv_read_stop(reinterpret_cast<uv_stream_t*>(pipe));
  close_all();
}

bool ChildProcess::reap() {
  if (exited_) return true;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done != pid_) return false;
  exited_ = true;
  exit_ = WIFSIGNALED(status) ? Exit{0, WTERMSIG(status)} : Exit{WEXITSTATUS(status), 0};
  uv_timer_stop(&reap_timer_);
  if (pidfd_ >= 0) uv_poll_stop(&exit_poll_);
  if (open_pipes_ > 0)
    uv_timer_start(&drain_timer_, on_drain_timeout, limits::kChildOutputDrainMs, 0);
  maybe_finish();
  return true;
}

void ChildProcess::on_pidfd(uv_poll_t* poll, int, int) {
  static_cast<ChildProcess*>(poll->data)->reap();
}

void ChildProcess::on_reap_timer(uv_timer_t* timer) {
  static_cast<ChildProcess*>(timer->data)->reap();
}

void ChildProcess::on_drain_timeout(uv_timer_t* timer) {
  auto* self = static_cast<ChildProcess*>(timer->data);
  for (uv_pipe_t* pipe : {&self->out_, &self->err_})
    uv_read_stop(reinterpret_cast<uv_stream_t*>(pipe));
  self->open_pipes_ = 0;
  self->maybe_finish();
}

void ChildProcess::on_alloc(uv_handle_t*, std::size_t, uv_buf_t* buf) {
  *buf = uv_buf_init(g_read_buffer, kReadBufferBytes);
}

void ChildProcess::on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<ChildProcess*>(stream->data);
  if (nread > 0) {
    const char which = stream == reinterpret_cast<uv_stream_t*>(&self->out_) ? 'o' : 'e';
    if (self->terminal_ && which == 'o')
      nread = self->read_burst(buf->base, buf->len, static_cast<std::size_t>(nread));
    if (self->callbacks_.on_output) {
      try {
        self->callbacks_.on_output(which,
                                   std::string_view(buf->base, static_cast<std::size_t>(nread)));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "missiond: child %d output: %s\n", static_cast<int>(self->pid_),
                     e.what());
      }
    }
    return;
  }
  if (nread < 0 && self->open_pipes_ > 0) {  // EOF or a read error: this pipe is done
    uv_read_stop(stream);
    --self->open_pipes_;
    self->maybe_finish();
  }
}

ssize_t ChildProcess::read_burst(char* buffer, std::size_t capacity, std::size_t have) {
  std::size_t last = have;
  while (last >= kTerminalBurstReadBytes && have < capacity) {
    // Non-blocking (libuv made it so): EAGAIN when the terminal is empty; an
    // error or end (EIO once the agent's side is closed) is left for libuv's
    // next read to report.
    const ssize_t n = ::read(terminal_fd_, buffer + have, capacity - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    last = static_cast<std::size_t>(n);
    have += last;
  }
  return static_cast<ssize_t>(have);
}

void ChildProcess::maybe_finish() {
  if (finished_ || !exited_ || open_pipes_ > 0) return;
  finished_ = true;
  if (callbacks_.on_exit) {
    try {
      callbacks_.on_exit(exit_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: child %d exit: %s\n", static_cast<int>(pid_), e.what());
    }
  }
  close_all();
}

void ChildProcess::close_all() {
  std::vector<uv_handle_t*> handles{
      reinterpret_cast<uv_handle_t*>(&out_), reinterpret_cast<uv_handle_t*>(&err_),
      reinterpret_cast<uv_handle_t*>(&drain_timer_), reinterpret_cast<uv_handle_t*>(&reap_timer_)};
  if (exit_poll_.data == this) handles.push_back(reinterpret_cast<uv_handle_t*>(&exit_poll_));
  if (has_stdin_) handles.push_back(reinterpret_cast<uv_handle_t*>(&in_));
  for (uv_handle_t* handle : handles) {
    if (!uv_is_closing(handle)) uv_close(handle, on_close);
  }
}

void ChildProcess::on_close(uv_handle_t* handle) {
  auto* self = static_cast<ChildProcess*>(handle->data);
  if (--self->open_handles_ > 0) return;
  // The poll handle is closed: its fd may go now.
  if (self->pidfd_ >= 0) ::close(self->pidfd_);
  delete self;
}

}  // namespace mission::loop
