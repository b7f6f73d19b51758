#pragma once
// The code behind each toolset: one handler per toolset, one file each
// (signals_toolset.cpp, tracking_toolset.cpp), found by the toolset name in
// the catalog.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/store/database.hpp"
#include "daemon/tracking/idempotency.hpp"

namespace mission::daemon::git {
class TreeWatchService;
}

namespace mission::daemon::mcp {

// What a tool may touch: the store and the identity of its caller, which the
// session knows so the agent never has to say who it is.
struct ToolContext {
  store::Database& db;
  std::string execution_id;
  std::int64_t session_id = 0;
  tracking::IdempotencySettings idempotency;
  // False where no reply can wait (inside a JSON-RPC batch): deferred work
  // then runs inline on the loop.
  bool can_defer = true;
  // Events ({type, ...}) the call produced, published by the session once
  // its transaction has committed.
  std::vector<nlohmann::json> events;
  // The daemon's watched trees, for snapshots and change sets; may be null.
  git::TreeWatchService* trees = nullptr;
};

// Long work a tool hands to the thread pool (a git snapshot or diff).
struct DeferredWork {
  // On a pool thread: touches no daemon state and no store.
  std::function<nlohmann::json()> work;
  // Back on the loop, inside a transaction, with what `work` returned; gives
  // the tool's structured result.
  std::function<nlohmann::json(ToolContext&, nlohmann::json)> finish;
  // On the loop when `work` or `finish` failed (its transaction rolled
  // back): releases what the call reserved. May be empty.
  std::function<void(ToolContext&)> abandon;
};

// A handler's answer: its structured result now, or work to finish later.
struct ToolOutcome {
  ToolOutcome(nlohmann::json value) : result(std::move(value)) {}  // NOLINT: implicit on purpose
  ToolOutcome(DeferredWork work) : deferred(std::move(work)) {}   // NOLINT
  nlohmann::json result;
  std::optional<DeferredWork> deferred;
};

// Runs one validated call; throws MissionError for a failure the agent
// should see as a tool error.
using ToolHandler = ToolOutcome (*)(ToolContext& context, const ToolDefinition& tool,
                                    const nlohmann::json& arguments);

// The handler of `toolset`, or nullptr if none is built in.
ToolHandler toolset_handler(std::string_view toolset);

ToolOutcome call_signal_tool(ToolContext& context, const ToolDefinition& tool,
                             const nlohmann::json& arguments);
ToolOutcome call_tracking_tool(ToolContext& context, const ToolDefinition& tool,
                               const nlohmann::json& arguments);

}  // namespace mission::daemon::mcp
