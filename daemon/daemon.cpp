#include "daemon/daemon.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "daemon/coordination/coordination.hpp"
#include "daemon/git/change_set.hpp"
#include "daemon/http/listen_address.hpp"
#include "daemon/loop/work_queue.hpp"
#include "daemon/rpc/control_session.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/idempotency_repository.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/workspaces/workspaces.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
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

Daemon::Daemon(RuntimePaths paths, DaemonSettings settings)
    : paths_(std::move(paths)), settings_(settings), loop_(std::make_unique<uv_loop_t>()) {
  uv_loop_init(loop_.get());
}

Daemon::~Daemon() {
  listener_.reset();
  http_.reset();
  maintenance_timer_.reset();
  claims_timer_.reset();
  stop_timer_.reset();
  shutdown_soon_.reset();
  sigterm_.reset();
  sigint_.reset();
  runs_.reset();  // before the launcher, whose end observers they are
  // A control tool finishing while the loop drains below finds no attempts
  // (a tool error) rather than a destroyed service.
  if (mcp_services_) mcp_services_->attempts = nullptr;
  attempts_.reset();
  inbound_.reset();
  launcher_.reset();
  tree_watches_.reset();
  control_services_.reset();
  // Let the close callbacks of every handle run before the loop goes. Tool
  // calls whose pool work finishes now still read the sessions' services.
  while (uv_loop_close(loop_.get()) == UV_EBUSY) uv_run(loop_.get(), UV_RUN_ONCE);
  mcp_services_.reset();
  database_.reset();
}

std::int64_t Daemon::uptime_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               started_at_)
      .count();
}

nlohmann::json Daemon::open_board() {
  bool started = false;
  if (!http_) {
    // On loopback only, on a port the kernel picks: nothing is reachable
    // from elsewhere unless missiond was started with --http.
    auto server = std::make_unique<http::HttpServer>(*mcp_services_, *control_services_);
    server->listen(*http::parse_listen_address("127.0.0.1:0"));
    http_ = std::move(server);
    started = true;
    std::fprintf(stderr, "missiond: the board listens at http://%s/\n", http_->address().c_str());
  }
  nlohmann::json link = http_->mint_board_sign_in();
  link["address"] = http_->address();
  link["started"] = started;
  return link;
}

std::size_t Daemon::connection_count() const {
  return listener_ ? listener_->connection_count() : 0;
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

void Daemon::open_store() {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::path file = paths_.database();
    file += suffix;
    if (std::string note = ensure_private_file(file, getuid(), *suffix == '\0'); !note.empty()) {
      std::fprintf(stderr, "missiond: %s\n", note.c_str());
    }
  }
  database_ = std::make_unique<store::Database>(paths_.database());
  if (settings_.synchronous == "full") database_->exec("PRAGMA synchronous=FULL;");
  store::migrate(*database_);
  // No MCP session survives a restart of the daemon that served it, and no
  // launched process is ours any more: its output has nobody to read it.
  const std::int64_t now = unix_ms_now();
  store::Transaction transaction(*database_);
  store::McpSessionRepository(*database_).detach_all(now);
  store::ExecutionRepository(*database_).mark_launched_lost(active_execution_states(), now);
  // A request_id still in progress named work that died with the last
  // daemon; its retry must run again.
  store::IdempotencyRepository(*database_).remove_in_progress();
  transaction.commit();
  // Launch configs a previous daemon left (it crashed, or stopped while its
  // agents ran): their executions are lost, their tokens must not linger.
  // A live run's folder stays: it holds the environment the person started
  // the run with (docs/adr/0032), which the run resumes with.
  std::set<std::string> live_runs;
  for (const store::RunRow& run : store::RunRepository(*database_).live()) live_runs.insert(run.id);
  std::error_code listing;
  for (std::filesystem::directory_iterator entry(paths_.launch_dir(), listing), end;
       !listing && entry != end; entry.increment(listing)) {
    if (live_runs.count(entry->path().filename().string()) != 0) continue;
    std::error_code ignored;
    std::filesystem::remove_all(entry->path(), ignored);
  }
}

void Daemon::start() {
  started_at_ = std::chrono::steady_clock::now();
  // Files other users could read would give away every mission, signal and
  // agent command line: the state dir is 0700 and the database 0600.
  if (!paths_.runtime_dir_note.empty())
    std::fprintf(stderr, "missiond: %s\n", paths_.runtime_dir_note.c_str());
  if (std::string note = ensure_state_dir(paths_.state_dir, getuid()); !note.empty()) {
    std::fprintf(stderr, "missiond: %s\n", note.c_str());
  }
  ensure_private_dir(paths_.runtime_dir, getuid());
  take_locks();
  open_store();

  uv_loop_t* loop = loop_.get();
  launcher_ = std::make_unique<execution::Launcher>(execution::RunnerServices{
      loop, *database_, events_, paths_.logs_dir(), paths_.sandbox_temp_dir(), {}});
  inbound_ = std::make_unique<coordination::InboundDelivery>(*database_, events_, *launcher_);
  tree_watches_ = std::make_unique<git::TreeWatchService>(
      loop, settings_.tree_watching, [this](const std::string& root) {
        return store::TaskRepository(*database_).has_in_progress(root) ||
               (runs_ && runs_->live_conflicts().follows(root));
      });
  const runs::RunServices run_services{loop,    *database_,         events_, *launcher_, paths_,
                                       *plans_, tree_watches_.get()};
  runs_ = std::make_unique<runs::RunService>(run_services);
  attempts_ = std::make_unique<runs::AttemptControl>(run_services);
  mcp_services_ = std::make_unique<mcp::SessionServices>(mcp::SessionServices{
      *database_, events_, loop, settings_.idempotency, tree_watches_.get(), plans_.get(),
      attempts_.get(), &shutting_down_, launcher_.get(), &runs_->live_conflicts()});
  // Agents' sessions leave room for people's commands (limits.hpp).
  const std::size_t max = settings_.connections.max_connections;
  agent_sessions_.max = max - std::min(limits::kReservedControlConnections, max / 2);
  control_services_ = std::make_unique<ControlServices>(ControlServices{
      *database_, events_, *launcher_, paths_, settings_.idempotency, settings_.retention, *this,
      *mcp_services_, *tree_watches_, *runs_, &agent_sessions_});
  maintenance_timer_ = std::make_unique<loop::Timer>(loop, [this] { maintain(); });
  maintain();
  claims_timer_ = std::make_unique<loop::Timer>(loop, [this] { expire_claims(); });
  expire_claims();

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

  listener_ = std::make_unique<loop::Listener>(loop, [this](loop::Connection& connection) {
    return std::make_unique<ControlSession>(*control_services_, connection,
                                            settings_.connections.hello_timeout_ms);
  });
  listener_->limit_connections(
      settings_.connections.max_connections, [](const std::string& why, const std::string& hint) {
        return jsonrpc::to_line(
            jsonrpc::error(nullptr, MissionError(ErrorCode::daemon_unavailable, why, hint)));
      });
  if (int rc = listener_->listen(paths_.socket); rc != 0) {
    throw MissionError(ErrorCode::internal,
                       "cannot listen on " + paths_.socket.string() + ": " + uv_strerror(rc),
                       "check that the directory exists and is writable");
  }
  if (settings_.http) {
    // Built only when asked for: a daemon without --http holds none of it.
    http_ = std::make_unique<http::HttpServer>(*mcp_services_, *control_services_);
    http_->listen(*settings_.http, settings_.http_hosts);
    std::fprintf(stderr, "missiond: MCP over HTTP at http://%s/mcp/EXECUTION_ID\n",
                 http_->address().c_str());
  }
  write_pid_file();

  auto on_signal = [this](int signum) {
    request_shutdown(signum == SIGTERM ? "SIGTERM" : "SIGINT");
  };
  sigterm_ = std::make_unique<loop::SignalWatcher>(loop, SIGTERM, on_signal);
  sigint_ = std::make_unique<loop::SignalWatcher>(loop, SIGINT, on_signal);
  std::fprintf(stderr, "missiond: listening on %s (pid %d)\n", paths_.socket.c_str(),
               static_cast<int>(getpid()));
  // Workflow runs a previous daemon was running go on, and attempts' turns
  // it had queued launch.
  runs_->resume();
  attempts_->resume();
  recover_workspaces();
  // What the start compiled and allocated (migrations, recovery, the
  // schemas' first use) mostly does not run again: give it back, so an idle
  // daemon holds only what serving requests needs.
  database_->drop_cached_statements();
  sqlite3_db_release_memory(database_->handle());
  malloc_trim(0);
}

void Daemon::run() {
  uv_run(loop_.get(), UV_RUN_DEFAULT);
}

void Daemon::recover_workspaces() {
  // What an earlier daemon left in git without a row (killed between
  // making a worktree and recording it) is reconciled off the loop; only
  // what holds no work goes (workspaces.hpp).
  auto cleanup = std::make_shared<workspaces::Cleanup>(workspaces::plan_recovery(*database_));
  loop::queue_work(
      loop_.get(),
      [cleanup] {
        try {
          workspaces::run_clean(*cleanup);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "missiond: reconciling worktrees failed: %s\n", e.what());
        }
      },
      [cleanup] {
        for (const auto& leftover : cleanup->leftovers) {
          if (!leftover.removed) continue;
          std::fprintf(stderr, "missiond: removed %s%s left without a record in %s\n",
                       leftover.name.empty() ? "" : ("worktree " + leftover.name + " ").c_str(),
                       leftover.branch.empty() ? "" : ("branch " + leftover.branch).c_str(),
                       leftover.repository.c_str());
        }
      });
}

void Daemon::maintain() {
  const std::int64_t now = unix_ms_now();
  try {
    store::IdempotencyRepository(*database_).prune(now);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: pruning request_id records failed: %s\n", e.what());
  }
  try {
    execution::sweep(*database_, paths_, settings_.retention, now, false);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: the retention sweep failed: %s\n", e.what());
  }
  maintenance_timer_->start(static_cast<int>(limits::kIdempotencyPruneIntervalMs));
}

void Daemon::expire_claims() {
  try {
    events::EventBatch batch(events_);
    store::Transaction transaction(*database_);
    const std::size_t released = coordination::expire_claims(*database_, batch, unix_ms_now());
    transaction.commit();
    batch.publish_to(events_);
    if (released > 0)
      std::fprintf(stderr, "missiond: released %zu claims whose lease ran out\n", released);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: the claim sweep failed: %s\n", e.what());
  }
  claims_timer_->start(static_cast<int>(limits::kClaimSweepIntervalMs));
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
  // HTTP clients hold streams open; their sessions end now.
  if (http_) http_->stop();
  std::error_code ignored;
  std::filesystem::remove(paths_.socket, ignored);
  // Requests are answered synchronously, so every one in flight already has
  // its reply queued; closing waits for those bytes to reach the peer.
  listener_->on_idle = [this] { finish_shutdown(); };
  stop_timer_ = std::make_unique<loop::Timer>(loop_.get(), [this] {
    std::fprintf(stderr, "missiond: peers did not read their replies in time; closing anyway\n");
    listener_->abort_connections();
    // The aborted connections release themselves on the next loop turn and
    // on_idle finishes then.
    if (listener_->connection_count() == 0) finish_shutdown();
  });
  stop_timer_->start(limits::kStopTimeoutMs);
  listener_->close_connections();
}

void Daemon::schedule_shutdown(const char* reason) {
  // A zero timer fires on the next loop turn, after this request's reply
  // has been queued.
  shutdown_soon_ =
      std::make_unique<loop::Timer>(loop_.get(), [this, reason] { request_shutdown(reason); });
  shutdown_soon_->start(0);
}

void Daemon::finish_shutdown() {
  if (finished_) return;
  finished_ = true;
  if (stop_timer_) stop_timer_->stop();
  sigterm_->close();
  sigint_->close();
  maintenance_timer_->stop();
  claims_timer_->stop();
  // The agents run on; a restarted daemon marks their executions lost.
  launcher_->release_all();
  if (wrote_pid_file_) {
    std::error_code ignored;
    std::filesystem::remove(paths_.pid_file(), ignored);
  }
  std::fprintf(stderr, "missiond: stopped\n");
}

}  // namespace mission::daemon
