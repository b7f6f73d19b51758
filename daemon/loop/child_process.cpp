#include "daemon/loop/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "shared/limits.hpp"

namespace mission::loop {
namespace {

// One read at a time happens on the loop thread, so children share a buffer.
constexpr std::size_t kReadBufferBytes = 64 * 1024;
char g_read_buffer[kReadBufferBytes];

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
  // Blocking for the child, which writes; our ends go non-blocking below.
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
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

  int in[2] = {-1, -1};
  if (options.stdin_pipe) {
    if (int rc = uv_pipe(in, 0, 0); rc != 0) {
      for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
      error = rc;
      return nullptr;
    }
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.stdin_pipe) {
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
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
  int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(out[1]);
  ::close(err[1]);
  if (options.stdin_pipe) ::close(in[0]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    if (options.stdin_pipe) ::close(in[1]);
    error = -rc;
    return nullptr;
  }

  auto* child = new ChildProcess();
  child->callbacks_ = std::move(callbacks);
  child->pid_ = pid;
  uv_pipe_init(loop, &child->out_, 0);
  uv_pipe_init(loop, &child->err_, 0);
  uv_pipe_open(&child->out_, out[0]);
  uv_pipe_open(&child->err_, err[0]);
  uv_timer_init(loop, &child->drain_timer_);
  uv_timer_init(loop, &child->reap_timer_);
  child->open_handles_ = 4;
  for (uv_handle_t* handle : {reinterpret_cast<uv_handle_t*>(&child->out_),
                              reinterpret_cast<uv_handle_t*>(&child->err_),
                              reinterpret_cast<uv_handle_t*>(&child->drain_timer_),
                              reinterpret_cast<uv_handle_t*>(&child->reap_timer_)}) {
    handle->data = child;
  }
  if (options.stdin_pipe) {
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
  for (uv_pipe_t* pipe : {&child->out_, &child->err_}) {
    uv_read_start(reinterpret_cast<uv_stream_t*>(pipe), on_alloc, on_read);
  }
  return child;
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

int ChildProcess::signal_group(int signum) const {
  if (exited_ || pid_ <= 0) return 0;
  return ::kill(-pid_, signum) == 0 ? 0 : -errno;
}

void ChildProcess::release() {
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
  if (open_pipes_ > 0) uv_timer_start(&drain_timer_, on_drain_timeout, limits::kChildOutputDrainMs, 0);
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
  for (uv_pipe_t* pipe : {&self->out_, &self->err_}) uv_read_stop(reinterpret_cast<uv_stream_t*>(pipe));
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
    if (self->callbacks_.on_output) {
      try {
        self->callbacks_.on_output(which, std::string_view(buf->base, static_cast<std::size_t>(nread)));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "missiond: child %d output: %s\n", static_cast<int>(self->pid_), e.what());
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
  std::vector<uv_handle_t*> handles{reinterpret_cast<uv_handle_t*>(&out_),
                                    reinterpret_cast<uv_handle_t*>(&err_),
                                    reinterpret_cast<uv_handle_t*>(&drain_timer_),
                                    reinterpret_cast<uv_handle_t*>(&reap_timer_)};
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
