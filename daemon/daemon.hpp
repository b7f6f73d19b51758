#pragma once
// The daemon process: runtime files, the store, the listener and the signal
// watchers, owned by one object on the loop thread. It builds the services
// the modules use (the store, the event bus, the launcher, the loop and the
// settings) and hands each module only the ones it needs. Start-up either
// completes or throws a MissionError that names the problem and its fix.

#include <uv.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "daemon/coordination/inbound_delivery.hpp"
#include "daemon/events/event_bus.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/execution/retention.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/http/http_server.hpp"
#include "daemon/loop/listener.hpp"
#include "daemon/loop/signal_watcher.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/mcp/session_services.hpp"
#include "daemon/rpc/method_context.hpp"
#include "daemon/runs/attempt_control.hpp"
#include "daemon/runs/run_service.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "shared/file_lock.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon {

struct DaemonSettings {
  tracking::IdempotencySettings idempotency;
  execution::RetentionSettings retention;
  git::TreeWatchSettings tree_watching;
  loop::ConnectionSettings connections;
  // missiond --http: where MCP over Streamable HTTP listens; off when empty.
  std::optional<sockaddr_storage> http;
  // missiond --http-host: the names clients reach that listener by, beyond
  // its address (and loopback's own names).
  std::vector<std::string> http_hosts;
  // missiond --synchronous: SQLite's synchronous setting. "normal": an
  // acknowledged write survives a crash of the daemon, and a power loss may
  // take the last commits; "full": it survives a power loss too, at one
  // fsync per commit.
  std::string synchronous = "normal";
};

class Daemon : public DaemonControl {
 public:
  explicit Daemon(RuntimePaths paths, DaemonSettings settings = {});
  ~Daemon() override;
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Checks the runtime dir, takes the locks, writes the pid file, opens and
  // migrates the database, and listens on the socket.
  void start();

  // Runs the loop until a shutdown completes, then closes the store.
  void run();

  // Begins a graceful shutdown: stop accepting, let every connection flush
  // its replies, then stop. Safe to call more than once.
  void request_shutdown(const char* reason);

  // DaemonControl, for daemon.status and daemon.stop.
  std::int64_t uptime_ms() const override;
  std::size_t connection_count() const override;
  std::string http_address() const override { return http_ ? http_->address() : std::string(); }
  nlohmann::json open_board() override;
  void schedule_shutdown(const char* reason) override;

 private:
  void take_locks();
  void write_pid_file();
  void open_store();
  void finish_shutdown();
  void maintain();            // the request_id prune and the retention sweep
  void recover_workspaces();  // git left by a killed daemon, reconciled on the pool
  void expire_claims();       // claims of silent agents (docs/adr/0019)

  RuntimePaths paths_;
  DaemonSettings settings_;
  // Heap-owned so that the handles inside outlive this object until their
  // close callbacks (see loop/timer.cpp).
  std::unique_ptr<uv_loop_t> loop_;
  std::optional<FileLock> runtime_lock_;
  std::optional<FileLock> state_lock_;
  // The store lives until the loop has ended: thread-pool work that
  // finishes during shutdown still records its result.
  std::unique_ptr<store::Database> database_;
  events::EventBus events_;
  std::unique_ptr<execution::Launcher> launcher_;
  std::unique_ptr<coordination::InboundDelivery> inbound_;
  std::unique_ptr<git::TreeWatchService> tree_watches_;
  std::unique_ptr<planning::PlanCache> plans_ = std::make_unique<planning::PlanCache>();
  std::unique_ptr<runs::RunService> runs_;
  std::unique_ptr<runs::AttemptControl> attempts_;
  std::unique_ptr<mcp::SessionServices> mcp_services_;
  AgentSessionCount agent_sessions_;
  std::unique_ptr<ControlServices> control_services_;
  std::unique_ptr<loop::Listener> listener_;
  std::unique_ptr<http::HttpServer> http_;  // null unless --http
  std::unique_ptr<loop::SignalWatcher> sigterm_;
  std::unique_ptr<loop::SignalWatcher> sigint_;
  std::unique_ptr<loop::Timer> maintenance_timer_;
  std::unique_ptr<loop::Timer> claims_timer_;
  std::unique_ptr<loop::Timer> stop_timer_;
  std::unique_ptr<loop::Timer> shutdown_soon_;
  bool shutting_down_ = false;
  bool finished_ = false;
  bool wrote_pid_file_ = false;
  std::chrono::steady_clock::time_point started_at_;
};

}  // namespace mission::daemon
