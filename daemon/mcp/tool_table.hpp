#pragma once
// The MCP tools as the daemon runs them: one table per toolset (one file
// each: signals_toolset.cpp, tracking_toolset.cpp, planning_toolset.cpp), one row per tool:
// {name, typed decoder and handler, immediate or deferred, writes}. A tool
// exists when it has a row here and a schema pair in schemas/tools/ (a test
// holds the two equal). The gate (tool_call.cpp) validates the arguments,
// decodes them once into the row's request struct, opens the savepoint of
// a tool that writes, and honours request_id; handlers never see raw JSON.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/runs/attempt_control.hpp"
#include "daemon/runs/live_conflicts.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::mcp {

// What a tool may touch: the store and the identity of its caller, which the
// session knows so the agent never has to say who it is.
struct ToolContext {
  store::Database& db;
  std::string execution_id;
  std::int64_t session_id = 0;
  const tracking::IdempotencySettings& idempotency;
  // The events the call produces, published once its transaction commits.
  events::EventBatch& events;
  // The daemon's watched trees, for snapshots and change sets; may be null.
  git::TreeWatchService* trees = nullptr;
  // Planned workflows' DAGs, for the planning tools that only read; may be null.
  planning::PlanCache* plans = nullptr;
  // The control toolset's attempts (docs/adr/0025); may be null.
  runs::AttemptControl* attempts = nullptr;
  // The launched processes, which refuse a message their agent has no room
  // for; may be null.
  const execution::Launcher* launcher = nullptr;
  // The runs' conflicts found while agents work (docs/adr/0050); may be null.
  const runs::LiveConflicts* live_conflicts = nullptr;
};

// Long work a tool hands to the thread pool (a git snapshot or diff). The
// closures capture typed state only, never raw JSON.
struct DeferredWork {
  // On a pool thread: touches no daemon state and no store.
  std::function<void()> work;
  // Back on the loop, inside a transaction, once `work` has returned;
  // gives the tool's structured result.
  std::function<nlohmann::json(ToolContext&)> finish;
  // On the loop when `work` or `finish` failed (its transaction rolled
  // back): releases what the call reserved. May be empty.
  std::function<void(ToolContext&)> abandon;
};

// A tool that waits for something to happen (message_wait): the session
// answers when an event of `event_type` for its execution is published
// (after its commit: no polling), or when `timeout_ms` has passed.
struct WaitingWork {
  std::string_view event_type;
  std::int64_t timeout_ms = 0;
  // On the loop, in a transaction: the structured result if what the
  // call waits for is there, else nullopt (wait on).
  std::function<std::optional<nlohmann::json>(ToolContext&)> ready;
  // The structured result when the time ran out.
  std::function<nlohmann::json(ToolContext&)> timed_out;
};

// A handler's answer: its structured result now, work to finish later, or
// a wait.
struct ToolOutcome {
  ToolOutcome(nlohmann::json value) : result(std::move(value)) {}  // NOLINT: implicit on purpose
  ToolOutcome(DeferredWork work) : deferred(std::move(work)) {}    // NOLINT
  ToolOutcome(WaitingWork work) : waiting(std::move(work)) {}      // NOLINT
  nlohmann::json result;
  std::optional<DeferredWork> deferred;
  std::optional<WaitingWork> waiting;
};

enum class ToolMode { immediate, deferred, waiting };

// Decodes validated arguments and runs the tool; throws MissionError for a
// failure the agent should see as a tool error.
using ToolInvoke = ToolOutcome (*)(ToolContext& context, const nlohmann::json& arguments);

struct ToolRow {
  std::string_view name;
  ToolMode mode;
  bool writes;  // runs in a savepoint; request_id is honoured
  ToolInvoke invoke;
};

// The same for a tool that may wait.
template <class Request, ToolOutcome (*Handler)(ToolContext&, const Request&)>
ToolOutcome waiting(ToolContext& context, const nlohmann::json& arguments) {
  return Handler(context, arguments.get<Request>());
}

// A row's invoke for a tool answering at once: decodes `Request` with its
// from_json and calls `Handler`.
template <class Request, nlohmann::json (*Handler)(ToolContext&, const Request&)>
ToolOutcome immediate(ToolContext& context, const nlohmann::json& arguments) {
  return Handler(context, arguments.get<Request>());
}

// The same for a tool that hands work to the thread pool.
template <class Request, DeferredWork (*Handler)(ToolContext&, const Request&)>
ToolOutcome deferred(ToolContext& context, const nlohmann::json& arguments) {
  return Handler(context, arguments.get<Request>());
}

struct ToolsetTable {
  Toolset toolset;
  std::span<const ToolRow> tools;
};

// Every toolset's table (tool_table.cpp).
std::span<const ToolsetTable> toolset_tables();

// The row of `name` and its toolset, or nullptr.
const ToolRow* find_tool_row(std::string_view name, Toolset* toolset = nullptr);

std::span<const ToolRow> signal_tools();
std::span<const ToolRow> tracking_tools();
std::span<const ToolRow> legacy_tools();
std::span<const ToolRow> inspect_tools();
std::span<const ToolRow> planning_tools();
std::span<const ToolRow> template_tools();
std::span<const ToolRow> coordination_tools();
std::span<const ToolRow> workspace_tools();
std::span<const ToolRow> control_tools();

}  // namespace mission::daemon::mcp
