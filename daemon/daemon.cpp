#include "daemon/daemon.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "daemon/rpc/control_session.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/git/change_set.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "daemon/store/idempotency_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/task_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

std::string read_pid_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string pid;
  std::getline(in, pid);
  return pid;
}

}  // namespace

Daemon::Daemon(RuntimePaths paths, tracking::IdempotencySettings idempotency,
               git::TreeWatchSettings tree_watching)
    : paths_(std::move(paths)), idempotency_(idempotency), tree_watching_(tree_watching) {
  uv_loop_init(&loop_);
  uv_timer_init(&loop_, &stop_timer_);
  stop_timer_.data = this;
  uv_idle_init(&loop_, &shutdown_idle_);
  shutdown_idle_.data = this;
}

Daemon::~Daemon() {
  listener_.reset();
  prune_timer_.reset();
  tree_watches_.reset();
  sigterm_.reset();
  sigint_.reset();
  for (auto* handle : {reinterpret_cast<uv_handle_t*>(&stop_timer_),
                       reinterpret_cast<uv_handle_t*>(&shutdown_idle_)}) {
    if (!uv_is_closing(handle)) uv_close(handle, nullptr);
  }
  uv_run(&loop_, UV_RUN_NOWAIT);
  uv_loop_close(&loop_);
}

std::int64_t Daemon::uptime_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               started_at_)
      .count();
}

void Daemon::take_locks() {
  runtime_lock_ = FileLock::try_acquire(paths_.daemon_lock());
  if (!runtime_lock_) {
    std::string pid = read_pid_file(paths_.pid_file());
    throw MissionError(ErrorCode::already_running,
                       "missiond is already running" + (pid.empty() ? "" : " (pid " + pid + ")") +
                           " for " + paths_.runtime_dir.string(),
                       "use 'mission daemon stop' first, or set MISSION_RUNTIME_DIR for a "
                       "separate instance");
  }
  // The database must have one writer too, even when two daemons are given
  // different runtime dirs but the same state dir.
  state_lock_ = FileLock::try_acquire(paths_.state_dir / "missiond.lock");
  if (!state_lock_) {
    throw MissionError(ErrorCode::already_running,
                       "another missiond is using the state dir " + paths_.state_dir.string(),
                       "stop that daemon first, or set MISSION_STATE_DIR for a separate instance");
  }
}

void Daemon::write_pid_file() {
  // Write then rename, so a reader never sees a half-written pid.
  auto temporary = paths_.pid_file();
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << getpid() << '\n';
    if (!out) {
      throw MissionError(ErrorCode::internal, "cannot write " + temporary.string());
    }
  }
  std::filesystem::rename(temporary, paths_.pid_file());
  wrote_pid_file_ = true;
}

void Daemon::start() {
  started_at_ = std::chrono::steady_clock::now();
  ensure_private_dir(paths_.runtime_dir, getuid());
  ensure_dir(paths_.state_dir);
  take_locks();

  database_ = std::make_unique<store::Database>(paths_.database());
  store::migrate(*database_);
  // No MCP session survives a restart of the daemon that served it, and no
  // launched process is ours any more: its output has nobody to read it.
  const std::int64_t now = execution::unix_ms_now();
  store::McpSessionRepository(*database_).detach_all(now);
  store::ExecutionRepository(*database_).mark_launched_lost(execution::active_states(), now);
  // Launch configs a previous daemon left (it crashed, or stopped while its
  // agents ran): their executions are lost, their tokens must not linger.
  std::error_code no_leftovers;
  std::filesystem::remove_all(paths_.launch_dir(), no_leftovers);
  // A request_id still in progress named work that died with the last
  // daemon; its retry must run again.
  store::IdempotencyRepository(*database_).remove_in_progress();
  prune_timer_ = std::make_unique<loop::Timer>(&loop_, [this] { prune_idempotency_records(); });
  prune_idempotency_records();
  tree_watches_ = std::make_unique<git::TreeWatchService>(
      &loop_, tree_watching_, [this](const std::string& root) {
        return has_database() && store::TaskRepository(*database_).has_in_progress(root);
      });

  if (paths_.socket.string().size() > max_socket_path_length()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "socket path is too long (" + std::to_string(paths_.socket.string().size()) +
                           " bytes, the limit is " + std::to_string(max_socket_path_length()) +
                           "): " + paths_.socket.string(),
                       "choose a shorter MISSION_RUNTIME_DIR or --socket path");
  }
  // We hold the lock, so a socket file left here belongs to a dead daemon.
  std::error_code ignored;
  std::filesystem::remove(paths_.socket, ignored);

  listener_ = std::make_unique<loop::Listener>(&loop_, [this](loop::Connection& connection) {
    return std::make_unique<ControlSession>(*this, connection);
  });
  if (int rc = listener_->listen(paths_.socket); rc != 0) {
    throw MissionError(ErrorCode::internal,
                       "cannot listen on " + paths_.socket.string() + ": " + uv_strerror(rc),
                       "check that the directory exists and is writable");
  }
  write_pid_file();

  auto on_signal = [this](int signum) {
    request_shutdown(signum == SIGTERM ? "SIGTERM" : "SIGINT");
  };
  sigterm_ = std::make_unique<loop::SignalWatcher>(&loop_, SIGTERM, on_signal);
  sigint_ = std::make_unique<loop::SignalWatcher>(&loop_, SIGINT, on_signal);
  std::fprintf(stderr, "missiond: listening on %s (pid %d)\n", paths_.socket.c_str(),
               static_cast<int>(getpid()));
}

void Daemon::run() { uv_run(&loop_, UV_RUN_DEFAULT); }

void Daemon::launch(const std::string& execution_id, const std::string& cwd,
                    const std::vector<std::string>& command, const std::vector<std::string>& env,
                    bool reads_markers, adapters::LaunchFiles files) {
  auto runner = std::make_unique<execution::ExecutionRunner>(*this, execution_id, cwd, command, env,
                                                             reads_markers, std::move(files));
  runners_[execution_id] = std::move(runner);
}

execution::ExecutionRunner* Daemon::runner(const std::string& execution_id) {
  auto found = runners_.find(execution_id);
  return found == runners_.end() ? nullptr : found->second.get();
}

void Daemon::runner_finished(const std::string& execution_id) { runners_.erase(execution_id); }

void Daemon::prune_idempotency_records() {
  if (!has_database()) return;
  try {
    tracking::prune_idempotency_records(*database_, execution::unix_ms_now());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: pruning request_id records failed: %s\n", e.what());
  }
  prune_timer_->start(static_cast<int>(limits::kIdempotencyPruneIntervalMs));
}

void Daemon::request_shutdown(const char* reason) {
  if (shutting_down_) return;
  shutting_down_ = true;
  std::fprintf(stderr, "missiond: shutting down (%s)\n", reason);
  // Snapshots running in the thread pool end now, with shutting_down: the
  // loop would otherwise wait for them, however long their tree takes.
  git::cancel_running_snapshots();
  tree_watches_->stop();
  listener_->stop_accepting();
  std::error_code ignored;
  std::filesystem::remove(paths_.socket, ignored);
  // Requests are answered synchronously, so every one in flight already has
  // its reply queued; closing waits for those bytes to reach the peer.
  listener_->on_idle = [this] { finish_shutdown(); };
  uv_timer_start(&stop_timer_, on_stop_timeout, limits::kStopTimeoutMs, 0);
  listener_->close_connections();
}

void Daemon::schedule_shutdown(const char* reason) {
  scheduled_reason_ = reason;
  uv_idle_start(&shutdown_idle_, on_scheduled_shutdown);
}

void Daemon::on_scheduled_shutdown(uv_idle_t* idle) {
  auto* self = static_cast<Daemon*>(idle->data);
  uv_idle_stop(idle);
  self->request_shutdown(self->scheduled_reason_);
}

void Daemon::on_stop_timeout(uv_timer_t* timer) {
  auto* self = static_cast<Daemon*>(timer->data);
  std::fprintf(stderr, "missiond: peers did not read their replies in time; closing anyway\n");
  self->listener_->abort_connections();
  // The aborted connections release themselves on the next loop turn and
  // on_idle finishes then, so their close handlers still find the store.
  if (self->listener_->connection_count() == 0) self->finish_shutdown();
}

void Daemon::finish_shutdown() {
  if (finished_) return;
  finished_ = true;
  uv_timer_stop(&stop_timer_);
  uv_close(reinterpret_cast<uv_handle_t*>(&stop_timer_), nullptr);
  uv_idle_stop(&shutdown_idle_);
  uv_close(reinterpret_cast<uv_handle_t*>(&shutdown_idle_), nullptr);
  sigterm_->close();
  sigint_->close();
  prune_timer_->stop();
  // The agents run on; a restarted daemon marks their executions lost.
  runners_.clear();
  database_.reset();
  if (wrote_pid_file_) {
    std::error_code ignored;
    std::filesystem::remove(paths_.pid_file(), ignored);
  }
  std::fprintf(stderr, "missiond: stopped\n");
}

}  // namespace mission::daemon
