#pragma once
// What a control-API method may touch: the services the daemon builds for
// the control API, the calling session, and the events the call produces
// (published by the dispatcher once the call has committed).

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "daemon/events/event_bus.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/execution/retention.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/mcp/session_services.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon {

class ControlSession;

namespace runs {
class RunService;
}

// Agents' MCP sessions open now, and how many may be: the connection limit
// less the connections kept for people's commands
// (limits::kReservedControlConnections).
struct AgentSessionCount {
  std::size_t open = 0;
  std::size_t max = static_cast<std::size_t>(-1);
};

// The daemon itself, as its methods see it: how it is, and how to stop it.
class DaemonControl {
 public:
  virtual ~DaemonControl() = default;
  virtual std::int64_t uptime_ms() const = 0;
  virtual std::size_t connection_count() const = 0;
  // The HTTP listener's address ("127.0.0.1:8080"), or empty when it is off.
  virtual std::string http_address() const { return {}; }
  // board.open: starts the HTTP listener on loopback, on a free port,
  // unless it listens already, and mints a one-time sign-in link to the
  // board: {"url", "expiresInMs", "started"}.
  virtual nlohmann::json open_board() = 0;
  // Stops the daemon on the next loop turn, after the current reply is queued.
  virtual void schedule_shutdown(const char* reason) = 0;
};

struct ControlServices {
  store::Database& db;
  events::EventBus& events;
  execution::Launcher& launcher;
  const RuntimePaths& paths;
  const tracking::IdempotencySettings& idempotency;
  const execution::RetentionSettings& retention;
  DaemonControl& daemon;
  mcp::SessionServices& mcp;  // handed to the sessions mcp.attach opens
  git::TreeWatchService& trees;
  runs::RunService& runs;
  AgentSessionCount* agent_sessions = nullptr;  // null: no limit of its own
};

// A method whose work must leave the loop (git): `work` runs on a pool
// thread and touches nothing the loop owns; `finish` runs back on the
// loop, in a transaction, and gives the result. The reply goes out then.
struct DeferredReply {
  std::function<void()> work;
  std::function<nlohmann::json(store::Database& db, events::EventBatch& events)> finish;
};

struct MethodContext {
  // `session_in` is null for a call that came in over no control connection:
  // the board's, made for a person the HTTP listener signed in.
  MethodContext(ControlServices& services_in, ControlSession* session_in)
      : services(services_in), events(services_in.events), session_(session_in) {}

  // The calling control connection; throws for a method that needs one
  // (hello, events.subscribe, mcp.attach, terminal.attach) called without.
  ControlSession& session() const;

  ControlServices& services;
  events::EventBatch events;
  // Set by a handler that answers later (see DeferredReply); what it
  // returns now is ignored.
  std::optional<DeferredReply> deferred;

 private:
  ControlSession* session_;
};

}  // namespace mission::daemon
