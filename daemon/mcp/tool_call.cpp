#include "daemon/mcp/tool_call.hpp"

#include <cstdio>

#include "daemon/store/database.hpp"
#include "shared/error_code.hpp"
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
    throw MissionError(ErrorCode::unsupported_tool,
                       "tool '" + name + "' is not offered to this execution (toolset " +
                           known->toolset + " is not enabled)",
                       "call one of the tools from tools/list: " + names_of(view),
                       {{"tool", name}, {"toolset", known->toolset}});
  }
  throw MissionError(ErrorCode::unsupported_tool, "unknown tool '" + name + "'",
                     "call one of the tools from tools/list: " + names_of(view), {{"tool", name}});
}

}  // namespace

nlohmann::json tool_result(const nlohmann::json& structured, bool is_error) {
  return {{"content", {{{"type", "text"}, {"text", structured.dump()}}}},
          {"structuredContent", structured},
          {"isError", is_error}};
}

namespace {

// A tool's failure as a result: its own MissionError, or internal.
nlohmann::json tool_error_result(const std::string& tool, const std::exception& error) {
  if (const auto* mission_error = dynamic_cast<const MissionError*>(&error)) {
    return tool_result(mission_error->to_payload(), true);
  }
  std::fprintf(stderr, "missiond: tool %s failed: %s\n", tool.c_str(), error.what());
  return tool_result(
      MissionError(ErrorCode::internal, error.what(), "retry; report it if it persists").to_payload(),
      true);
}

}  // namespace

ToolOutcome call_tool(ToolContext& context, const CatalogView& view, const nlohmann::json& params) {
  if (!params.is_object() || !params.contains("name") || !params.at("name").is_string()) {
    throw MissionError(ErrorCode::invalid_argument, "tools/call needs params.name, a string",
                       "send {\"name\": <tool>, \"arguments\": {...}}");
  }
  static const nlohmann::json kNoArguments = nlohmann::json::object();
  const nlohmann::json& arguments = params.contains("arguments") ? params.at("arguments") : kNoArguments;
  if (!arguments.is_object() && !arguments.is_null()) {
    throw MissionError(ErrorCode::invalid_argument, "tools/call params.arguments must be an object",
                       "send the tool's arguments as a JSON object");
  }
  const ToolDefinition& tool = find_tool(view, params.at("name").get<std::string>());
  const nlohmann::json& input = arguments.is_null() ? kNoArguments : arguments;
  try {
    auto violations = SchemaRegistry::embedded().validate(tool.input_schema_id, input);
    if (!violations.empty()) {
      nlohmann::json details = nlohmann::json::array();
      for (const auto& violation : violations) {
        details.push_back({{"path", violation.path}, {"message", violation.message}});
      }
      throw MissionError(ErrorCode::invalid_argument,
                         "invalid arguments for " + tool.name + ": " + describe(violations),
                         "fix the fields named in details.violations; the inputSchema in "
                         "tools/list lists every field",
                         {{"violations", std::move(details)}});
    }
    ToolHandler handler = toolset_handler(tool.toolset);
    if (handler == nullptr) {
      throw MissionError(ErrorCode::internal, "toolset '" + tool.toolset + "' has no handler");
    }
    // A failing tool leaves nothing behind: its writes share one savepoint.
    store::Transaction savepoint(context.db);
    ToolOutcome outcome = handler(context, tool, input);
    savepoint.commit();
    if (!outcome.deferred) return tool_result(outcome.result, false);
    if (context.can_defer) return outcome;
    return run_deferred_inline(context, *outcome.deferred);
  } catch (const std::exception& e) {
    context.events.clear();
    return tool_error_result(tool.name, e);
  }
}

nlohmann::json finish_deferred(ToolContext& context, DeferredWork& deferred,
                               nlohmann::json work_result, const MissionError* work_error) {
  auto abandon = [&] {
    context.events.clear();
    if (!deferred.abandon) return;
    store::Transaction transaction(context.db);
    deferred.abandon(context);
    transaction.commit();
  };
  if (work_error != nullptr) {
    abandon();
    return tool_result(work_error->to_payload(), true);
  }
  try {
    store::Transaction transaction(context.db);
    nlohmann::json result = deferred.finish(context, std::move(work_result));
    transaction.commit();
    return tool_result(result, false);
  } catch (const std::exception& e) {
    abandon();
    return tool_error_result("(deferred)", e);
  }
}

nlohmann::json run_deferred_inline(ToolContext& context, DeferredWork& deferred) {
  try {
    nlohmann::json work_result = deferred.work();
    return finish_deferred(context, deferred, std::move(work_result), nullptr);
  } catch (const MissionError& e) {
    return finish_deferred(context, deferred, nullptr, &e);
  } catch (const std::exception& e) {
    MissionError error(ErrorCode::internal, e.what(), "retry; report it if it persists");
    return finish_deferred(context, deferred, nullptr, &error);
  }
}

}  // namespace mission::daemon::mcp
