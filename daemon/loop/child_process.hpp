#pragma once
// A spawned child with its stdout and stderr on pipes, in its own process
// group so a stop reaches everything it started. Knows nothing of JSON.
// Frees itself once the child has exited and both pipes are drained.
//
// Spawned with posix_spawn (a vfork on Linux), not uv_spawn: uv_spawn forks,
// copying the daemon's page tables, which cost a launch about 3 ms. The exit
// is watched through a pidfd.

#include <sys/types.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::loop {

class ChildProcess {
 public:
  struct Options {
    std::vector<std::string> argv;  // argv[0] is looked up in PATH of `env`
    std::vector<std::string> env;   // NAME=VALUE, the child's whole environment
    std::string cwd;
    // A pseudo-terminal instead of pipes (daemon/terminal/pseudo_terminal.*):
    // the child opens `terminal_path` as its stdin, stdout and stderr, which
    // makes it its controlling terminal, and its output is read from
    // `terminal_master`, which the ChildProcess then owns and closes.
    std::string terminal_path;
    int terminal_master = -1;
    // A pipe on the child's stdin that write_stdin feeds; else /dev/null.
    bool stdin_pipe = false;
    // When set, the spawn happens on a thread of its own that runs this
    // first: what the kernel keeps per thread (no_new_privs, a Landlock
    // domain) then passes to the child and to nothing else of the daemon.
    // Returns 0, or a negative errno that fails the spawn.
    std::function<int()> confine_spawning_thread;
  };
  struct Exit {
    std::int64_t status = 0;  // exit code; 0 when killed by a signal
    int signal = 0;           // the terminating signal, or 0
  };
  struct Callbacks {
    // Output as it arrives; `stream` is 'o' (stdout, or the terminal) or 'e'
    // (stderr).
    std::function<void(char stream, std::string_view bytes)> on_output;
    // Called once, after the child has exited and both pipes reached EOF;
    // the ChildProcess is freed right after it returns.
    std::function<void(const Exit& exit)> on_exit;
  };

  // Spawns; nullptr (and a negative uv code in `error`) if that fails. The
  // child's stdin is /dev/null, a pipe with options.stdin_pipe, or the terminal.
  static ChildProcess* spawn(uv_loop_t* loop, const Options& options, Callbacks callbacks,
                             int& error);

  pid_t pid() const { return pid_; }
  bool on_terminal() const { return terminal_; }
  // Queues bytes for the child's terminal, as if typed; ignored without one
  // or once the child has exited.
  void write_terminal(std::string_view bytes);
  // Sets the terminal's size; the kernel tells the child with SIGWINCH.
  void resize_terminal(unsigned short rows, unsigned short columns);
  // Queues `bytes` for the child's stdin pipe; 0, or UV_EPIPE when it has
  // none or has exited. A write the child never reads fails quietly.
  int write_stdin(std::string bytes);
  // Bytes queued for the child's terminal or stdin pipe that the kernel has
  // not taken yet (the child does not read them): its owner bounds them.
  std::size_t queued_input_bytes() const;
  // Sends `signum` to the child's whole process group; 0 or a negative errno.
  int signal_group(int signum) const;
  // The owner is going away (the daemon stops): drop the callbacks and
  // close the handles so the loop can end. The process runs on; this object
  // frees itself once the handles are closed.
  void release();

 private:
  ChildProcess() = default;
  ~ChildProcess() = default;

  void maybe_finish();
  void close_all();

  static void on_pidfd(uv_poll_t* poll, int status, int events);
  static void on_reap_timer(uv_timer_t* timer);
  // Reaps the child if it has exited; true then.
  bool reap();
  static void on_alloc(uv_handle_t* handle, std::size_t suggested, uv_buf_t* buf);
  static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void on_close(uv_handle_t* handle);
  static void on_drain_timeout(uv_timer_t* timer);
  // After a read of `have` bytes from the terminal into `buffer`, reads on
  // while a burst lasts; returns the bytes now in `buffer`.
  ssize_t read_burst(char* buffer, std::size_t capacity, std::size_t have);

  // Readable once the child has exited. Where pidfd_open is missing (Linux
  // before 5.3), reap_timer_ polls waitpid instead.
  uv_poll_t exit_poll_{};
  int pidfd_ = -1;
  uv_timer_t reap_timer_{};
  // Bounds the wait for EOF after the exit: a background grandchild may hold
  // the pipes open for ever.
  uv_timer_t drain_timer_{};
  uv_pipe_t out_{};
  uv_pipe_t err_{};
  uv_pipe_t in_{};
  bool has_stdin_ = false;
  Callbacks callbacks_;
  pid_t pid_ = 0;
  Exit exit_;
  bool exited_ = false;
  int open_pipes_ = 2;
  int open_handles_ = 0;
  bool finished_ = false;
  bool terminal_ = false;
  int terminal_fd_ = -1;
};

}  // namespace mission::loop
