#pragma once
// The daemon process: runtime files, the store, the listener and the signal
// watchers, owned by one object on the loop thread. Start-up either completes
// or throws a MissionError that names the problem and its fix.

#include <uv.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "daemon/execution/execution_runner.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/loop/listener.hpp"
#include "daemon/loop/signal_watcher.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/rpc/event_bus.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "shared/file_lock.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon {

class Daemon {
 public:
  explicit Daemon(RuntimePaths paths, tracking::IdempotencySettings idempotency = {},
                  git::TreeWatchSettings tree_watching = {});
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Checks the runtime dir, takes the locks, writes the pid file, opens and
  // migrates the database, and listens on the socket.
  void start();

  // Runs the loop until a shutdown completes.
  void run();

  // Begins a graceful shutdown: stop accepting, let every connection flush
  // its replies, then close the store. Safe to call more than once.
  void request_shutdown(const char* reason);

  // request_shutdown on the next loop turn, after the current request's
  // reply has been queued.
  void schedule_shutdown(const char* reason);

  const RuntimePaths& paths() const { return paths_; }
  uv_loop_t* loop() { return &loop_; }
  EventBus& events() { return events_; }

  // Starts a launched execution's process (see ExecutionRunner).
  void launch(const std::string& execution_id, const std::string& cwd,
              const std::vector<std::string>& command, const std::vector<std::string>& env,
              bool reads_markers, adapters::LaunchFiles files = {});
  // The runner of a live launched execution, or nullptr.
  execution::ExecutionRunner* runner(const std::string& execution_id);
  // Called by a runner whose process has ended; frees it.
  void runner_finished(const std::string& execution_id);
  store::Database& database() { return *database_; }
  const tracking::IdempotencySettings& idempotency_settings() const { return idempotency_; }
  // The watched git trees (exists once start() has run).
  git::TreeWatchService& tree_watches() { return *tree_watches_; }
  // False once shutdown has closed the store.
  bool has_database() const { return database_ != nullptr; }
  std::size_t connection_count() const { return listener_->connection_count(); }
  std::int64_t uptime_ms() const;
  bool shutting_down() const { return shutting_down_; }

 private:
  void take_locks();
  void write_pid_file();
  void finish_shutdown();
  void prune_idempotency_records();
  static void on_stop_timeout(uv_timer_t* timer);
  static void on_scheduled_shutdown(uv_idle_t* idle);

  RuntimePaths paths_;
  tracking::IdempotencySettings idempotency_;
  git::TreeWatchSettings tree_watching_;
  uv_loop_t loop_{};
  std::optional<FileLock> runtime_lock_;
  std::optional<FileLock> state_lock_;
  std::unique_ptr<store::Database> database_;
  std::map<std::string, std::unique_ptr<execution::ExecutionRunner>> runners_;
  EventBus events_;
  std::unique_ptr<loop::Listener> listener_;
  std::unique_ptr<loop::SignalWatcher> sigterm_;
  std::unique_ptr<loop::SignalWatcher> sigint_;
  std::unique_ptr<loop::Timer> prune_timer_;
  std::unique_ptr<git::TreeWatchService> tree_watches_;
  uv_timer_t stop_timer_{};
  uv_idle_t shutdown_idle_{};
  const char* scheduled_reason_ = nullptr;
  bool shutting_down_ = false;
  bool finished_ = false;
  bool wrote_pid_file_ = false;
  std::chrono::steady_clock::time_point started_at_;
};

}  // namespace mission::daemon
