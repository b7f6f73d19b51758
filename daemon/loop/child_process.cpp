#include "daemon/loop/child_process.hpp"

#include <signal.h>

#include <cstdio>

#include "shared/limits.hpp"

namespace mission::loop {
namespace {

// One read at a time happens on the loop thread, so children share a buffer.
constexpr std::size_t kReadBufferBytes = 64 * 1024;
char g_read_buffer[kReadBufferBytes];

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const auto& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

ChildProcess* ChildProcess::spawn(uv_loop_t* loop, const Options& options, Callbacks callbacks,
                                  int& error) {
  auto* child = new ChildProcess();
  child->callbacks_ = std::move(callbacks);
  uv_pipe_init(loop, &child->out_, 0);
  uv_pipe_init(loop, &child->err_, 0);
  uv_timer_init(loop, &child->drain_timer_);
  child->out_.data = child;
  child->err_.data = child;
  child->drain_timer_.data = child;

  uv_stdio_container_t stdio[3];
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
  stdio[1].data.stream = reinterpret_cast<uv_stream_t*>(&child->out_);
  stdio[2].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
  stdio[2].data.stream = reinterpret_cast<uv_stream_t*>(&child->err_);

  auto argv = c_strings(options.argv);
  auto env = c_strings(options.env);
  uv_process_options_t spawn_options{};
  spawn_options.file = argv[0];
  spawn_options.args = argv.data();
  spawn_options.env = env.data();
  spawn_options.cwd = options.cwd.empty() ? nullptr : options.cwd.c_str();
  spawn_options.stdio = stdio;
  spawn_options.stdio_count = 3;
  spawn_options.exit_cb = on_exit;
  // Its own session and process group: a stop signals the group, and the
  // child does not die with the daemon's terminal.
  spawn_options.flags = UV_PROCESS_DETACHED;
  child->process_.data = child;

  error = uv_spawn(loop, &child->process_, &spawn_options);
  if (error != 0) {
    // uv_spawn initialised the process handle even on failure; close all.
    child->open_handles_ = 4;
    child->finished_ = true;
    child->close_all();
    return nullptr;
  }
  child->open_handles_ = 4;
  child->pid_ = child->process_.pid;
  for (uv_pipe_t* pipe : {&child->out_, &child->err_}) {
    uv_read_start(reinterpret_cast<uv_stream_t*>(pipe), on_alloc, on_read);
  }
  return child;
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

void ChildProcess::on_exit(uv_process_t* process, int64_t status, int term_signal) {
  auto* self = static_cast<ChildProcess*>(process->data);
  self->exited_ = true;
  self->exit_ = {term_signal != 0 ? 0 : status, term_signal};
  if (self->open_pipes_ > 0) {
    uv_timer_start(&self->drain_timer_, on_drain_timeout, limits::kChildOutputDrainMs, 0);
  }
  self->maybe_finish();
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
  for (uv_handle_t* handle : {reinterpret_cast<uv_handle_t*>(&process_),
                              reinterpret_cast<uv_handle_t*>(&out_),
                              reinterpret_cast<uv_handle_t*>(&err_),
                              reinterpret_cast<uv_handle_t*>(&drain_timer_)}) {
    handle->data = this;
    if (!uv_is_closing(handle)) uv_close(handle, on_close);
  }
}

void ChildProcess::on_close(uv_handle_t* handle) {
  auto* self = static_cast<ChildProcess*>(handle->data);
  if (--self->open_handles_ == 0) delete self;
}

}  // namespace mission::loop
