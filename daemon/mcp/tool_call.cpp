#include "daemon/mcp/tool_call.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/tracking/idempotency.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon::mcp {
namespace {

std::string names_of(const CatalogView& view) {
  std::string names;
  for (const ToolDefinition* tool : view.tools()) {
    if (!names.empty()) names += ", ";
    names += tool->name;
  }
  return names;
}

const ToolDefinition& find_tool(const CatalogView& view, const std::string& name) {
  if (const ToolDefinition* tool = view.find(name)) return *tool;
  if (const ToolDefinition* known = ToolCatalog::builtin().find(name)) {
    const std::string toolset(name_of(known->toolset));
    throw MissionError(ErrorCode::unsupported_tool,
                       "tool '" + name + "' is not offered to this execution (toolset " + toolset +
                           " is not enabled)",
                       "call one of the tools from tools/list: " + names_of(view),
                       {{"tool", name}, {"toolset", toolset}});
  }
  throw MissionError(ErrorCode::unsupported_tool, "unknown tool '" + name + "'",
                     "call one of the tools from tools/list: " + names_of(view), {{"tool", name}});
}

// A tool that targets one of several kinds of record takes exactly one
// (the UX seed); naming two is ambiguous_target, before any other check.
void check_single_target(const ToolDefinition& tool, const nlohmann::json& arguments) {
  std::vector<std::string> given;
  for (const auto& field : tool.targets) {
    if (arguments.contains(field)) given.push_back(field);
  }
  if (given.size() <= 1) return;
  std::string listed;
  for (const auto& field : given) listed += (listed.empty() ? "" : " and ") + field;
  throw MissionError(ErrorCode::ambiguous_target,
                     tool.name + " got " + listed + "; it takes exactly one of them",
                     "keep the one that names where the work belongs and drop the others",
                     {{"given", given}, {"one_of", tool.targets}});
}

// The nesting of `value` (0 for a scalar), counted no further than one
// past `limit`. A parsed frame is at most kMaxJsonDepth deep.
std::size_t depth_of(const nlohmann::json& value, std::size_t limit) {
  if (!value.is_structured() || limit == 0) return value.is_structured() ? 1 : 0;
  std::size_t deepest = 0;
  for (const auto& item : value) {
    deepest = std::max(deepest, depth_of(item, limit - 1));
    if (deepest >= limit) break;
  }
  return deepest + 1;
}

void check_depth(const ToolDefinition& tool, const nlohmann::json& arguments) {
  if (depth_of(arguments, limits::kMaxToolArgumentDepth) <= limits::kMaxToolArgumentDepth) return;
  const std::string limit = std::to_string(limits::kMaxToolArgumentDepth);
  throw MissionError(ErrorCode::invalid_argument,
                     "the arguments for " + tool.name + " nest deeper than " + limit +
                         " levels of arrays and objects",
                     "flatten the deepest field (metadata, a detail, a body) to at most " + limit +
                         " levels, the arguments object being the first",
                     {{"limit", limits::kMaxToolArgumentDepth}});
}

void validate(const ToolDefinition& tool, const nlohmann::json& arguments) {
  auto violations = SchemaRegistry::embedded().validate(tool.input_schema_id, arguments);
  if (violations.empty()) return;
  nlohmann::json details = nlohmann::json::array();
  for (const auto& violation : violations) {
    details.push_back({{"path", violation.path}, {"message", violation.message}});
  }
  throw MissionError(ErrorCode::invalid_argument,
                     "invalid arguments for " + tool.name + ": " + describe(violations),
                     "fix the fields named in details.violations; the inputSchema in tools/list "
                     "lists every field",
                     {{"violations", std::move(details)}});
}

// A session outlives its execution's end only to be told so: once the
// execution is final, its tools change nothing (signal tools say so
// themselves, since a message is still taken then).
void require_live_execution(ToolContext& context, const ToolDefinition& tool) {
  if (tool.toolset == Toolset::signals || !tool.row->writes) return;
  auto execution = store::ExecutionRepository(context.db).find(context.execution_id);
  if (execution && !is_final(execution->state)) return;
  const std::string state = execution ? std::string(name_of(execution->state)) : "gone";
  throw MissionError(ErrorCode::execution_final,
                     "agent execution " + context.execution_id + " is " + state + "; " + tool.name +
                         " changes nothing for it any more",
                     "a new execution starts new work; message still records a note",
                     {{"state", state}});
}

// A tool's failure as a result: its own MissionError, or internal.
nlohmann::json tool_error_result(const std::string& tool, const std::exception& error) {
  if (const auto* mission_error = dynamic_cast<const MissionError*>(&error)) {
    return tool_result(mission_error->to_payload(), true);
  }
  std::fprintf(stderr, "missiond: tool %s failed: %s\n", tool.c_str(), error.what());
  return tool_result(
      MissionError(ErrorCode::internal, error.what(), "retry; report it if it persists")
          .to_payload(),
      true);
}

// request_id around a deferred call: held while the work runs, so a retry
// meanwhile is told to wait rather than starting the same work twice.
void hold_key_while_deferred(std::shared_ptr<tracking::IdempotencyKey> key, ToolContext& context,
                             DeferredWork& deferred) {
  key->reserve(context.db, context.idempotency);
  deferred.finish = [key, finish = std::move(deferred.finish)](ToolContext& finishing) {
    nlohmann::json result = finish(finishing);
    key->complete(finishing.db, finishing.idempotency, result);
    return result;
  };
  deferred.abandon = [key, abandon = std::move(deferred.abandon)](ToolContext& abandoning) {
    if (abandon) abandon(abandoning);
    key->release(abandoning.db);
  };
}

}  // namespace

nlohmann::json tool_result(const nlohmann::json& structured, bool is_error) {
  return {{"content",
           {{{"type", "text"},
             {"text", structured.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}}}},
          {"structuredContent", structured},
          {"isError", is_error}};
}

ToolOutcome call_tool(ToolContext& context, const CatalogView& view, const nlohmann::json& params) {
  if (!params.is_object() || !params.contains("name") || !params.at("name").is_string()) {
    throw MissionError(ErrorCode::invalid_argument, "tools/call needs params.name, a string",
                       "send {\"name\": <tool>, \"arguments\": {...}}");
  }
  static const nlohmann::json kNoArguments = nlohmann::json::object();
  const nlohmann::json& given =
      params.contains("arguments") ? params.at("arguments") : kNoArguments;
  if (!given.is_object() && !given.is_null()) {
    throw MissionError(ErrorCode::invalid_argument, "tools/call params.arguments must be an object",
                       "send the tool's arguments as a JSON object");
  }
  const ToolDefinition& tool = find_tool(view, params.at("name").get<std::string>());
  const nlohmann::json& arguments = given.is_null() ? kNoArguments : given;
  const ToolRow& row = *tool.row;
  try {
    check_depth(tool, arguments);
    check_single_target(tool, arguments);
    validate(tool, arguments);
    require_live_execution(context, tool);
    std::shared_ptr<tracking::IdempotencyKey> key;
    if (row.writes && arguments.contains("request_id")) {
      key = std::make_shared<tracking::IdempotencyKey>(
          context.execution_id, arguments.at("request_id").get<std::string>(), tool.name,
          arguments);
      if (auto replayed = key->replay(context.db)) return tool_result(*replayed, false);
    }
    // A failing tool leaves nothing behind: its writes share one savepoint.
    std::optional<store::Transaction> savepoint;
    if (row.writes) savepoint.emplace(context.db);
    ToolOutcome outcome = row.invoke(context, arguments);
    if (outcome.waiting) {
      if (savepoint) savepoint->commit();
      return outcome;  // the session answers when the wait ends
    }
    if (!outcome.deferred) {
      if (key) key->complete(context.db, context.idempotency, outcome.result);
      if (savepoint) savepoint->commit();
      return tool_result(outcome.result, false);
    }
    if (key) hold_key_while_deferred(key, context, *outcome.deferred);
    if (savepoint) savepoint->commit();
    return outcome;
  } catch (const std::exception& e) {
    context.events.discard();
    return tool_error_result(tool.name, e);
  }
}

nlohmann::json finish_deferred(ToolContext& context, DeferredWork& deferred,
                               const MissionError* work_error) {
  auto abandon = [&] {
    context.events.discard();
    if (!deferred.abandon) return;
    try {
      store::Transaction transaction(context.db);
      deferred.abandon(context);
      transaction.commit();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: releasing a failed tool call failed: %s\n", e.what());
    }
  };
  if (work_error != nullptr) {
    abandon();
    return tool_result(work_error->to_payload(), true);
  }
  try {
    store::Transaction transaction(context.db);
    nlohmann::json result = deferred.finish(context);
    transaction.commit();
    return tool_result(result, false);
  } catch (const std::exception& e) {
    abandon();
    return tool_error_result("(deferred)", e);
  }
}

nlohmann::json run_deferred_inline(ToolContext& context, DeferredWork& deferred) {
  try {
    deferred.work();
    return finish_deferred(context, deferred, nullptr);
  } catch (const MissionError& e) {
    return finish_deferred(context, deferred, &e);
  } catch (const std::exception& e) {
    MissionError error(ErrorCode::internal, e.what(), "retry; report it if it persists");
    return finish_deferred(context, deferred, &error);
  }
}

}  // namespace mission::daemon::mcp
