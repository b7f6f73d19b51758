#include "daemon/mcp/tool_catalog.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "daemon/execution/protocol_descriptor.hpp"
#include "shared/error_code.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon::mcp {
namespace {

constexpr std::string_view kInputSuffix = ".input";
constexpr std::string_view kOutputSuffix = ".output";

// Keys a published schema leaves out. The daemon validates with the full
// schema and names any violated bound in its error, so bounds and field
// prose cost context on every tools/list without helping a first call.
bool unpublished_key(std::string_view key) {
  return key == "$schema" || key == "$id" || key == "x-mission" || key == "description" ||
         key == "minLength" || key == "maxLength" || key == "maxItems" || key == "pattern" ||
         key == "minimum" || key == "maximum";
}

nlohmann::json strip(const nlohmann::json& node, bool root) {
  if (node.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(strip(item, false));
    return out;
  }
  if (!node.is_object()) return node;
  const bool enumerated = node.contains("enum") || node.contains("const");
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : node.items()) {
    if (unpublished_key(key)) continue;
    if (key == "type" && enumerated) continue;             // the values say it
    if (key == "additionalProperties" && !root) continue;  // the root one is the contract
    if (key == "properties") {
      nlohmann::json properties = nlohmann::json::object();
      for (const auto& [name, schema] : value.items()) properties[name] = strip(schema, false);
      out[key] = std::move(properties);
    } else {
      out[key] = strip(value, false);
    }
  }
  return out;
}

// Annotations equal to the MCP defaults say nothing; only the others are sent.
nlohmann::json published_annotations(const nlohmann::json& annotations) {
  static const nlohmann::json kDefaults = {{"readOnlyHint", false},
                                           {"destructiveHint", true},
                                           {"idempotentHint", false},
                                           {"openWorldHint", true}};
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : annotations.items()) {
    if (!kDefaults.contains(key) || kDefaults.at(key) != value) out[key] = value;
  }
  return out;
}

}  // namespace

nlohmann::json compact_schema(const nlohmann::json& schema) {
  nlohmann::json out = strip(schema, true);
  if (out.is_object()) out.erase("title");
  return out;
}

namespace {

// An answer's value lists say nothing the caller needs to make its call:
// an enum of strings is published as a string (the full schema, which
// keeps it, is what the tests check answers against).
nlohmann::json values_as_types(nlohmann::json node) {
  if (node.is_array()) {
    for (auto& item : node) item = values_as_types(std::move(item));
    return node;
  }
  if (!node.is_object()) return node;
  if (node.contains("enum") && node.at("enum").is_array() && !node.at("enum").empty() &&
      std::all_of(node.at("enum").begin(), node.at("enum").end(),
                  [](const nlohmann::json& value) { return value.is_string(); })) {
    node.erase("enum");
    node["type"] = "string";
  }
  for (auto& [key, value] : node.items()) value = values_as_types(std::move(value));
  return node;
}

}  // namespace

nlohmann::json compact_output_schema(const nlohmann::json& schema) {
  nlohmann::json out = values_as_types(compact_schema(schema));
  // A tool error is a result whose structuredContent is the error payload
  // {code, message, ...}, and MCP clients check every structuredContent
  // against the outputSchema; so the published one requires nothing.
  if (out.is_object()) out.erase("required");
  return out;
}

ToolCatalog::ToolCatalog() {
  const SchemaRegistry& registry = SchemaRegistry::embedded();
  for (const std::string& id : registry.ids_with_prefix("tools/")) {
    if (!id.ends_with(kInputSuffix)) continue;
    std::string name = id.substr(6, id.size() - 6 - kInputSuffix.size());
    if (name.find('/') != std::string::npos) continue;  // tools/fields/...
    const nlohmann::json& input = registry.resolved(id);
    const nlohmann::json& meta = input.at("x-mission");
    ToolDefinition tool;
    tool.name = name;
    const std::string toolset_name = meta.at("toolset").get<std::string>();
    Toolset table_toolset{};
    tool.row = find_tool_row(name, &table_toolset);
    if (tool.row == nullptr || name_of(table_toolset) != toolset_name) {
      throw std::logic_error("schemas/tools/" + name + " names toolset " + toolset_name +
                             " but no row of that toolset's table runs it");
    }
    tool.toolset = table_toolset;
    if (meta.contains("signal")) {
      tool.signal = require_name<SignalType>(meta.at("signal").get<std::string>(), "signal");
    }
    if (meta.contains("targets")) tool.targets = meta.at("targets").get<std::vector<std::string>>();
    tool.input_schema_id = id;
    tool.output_schema_id = "tools/" + name + std::string(kOutputSuffix);
    tool.listing = {
        {"name", name},
        {"title", input.at("title")},
        {"description", input.at("description")},
        {"inputSchema", compact_schema(input)},
        {"outputSchema", compact_output_schema(registry.resolved(tool.output_schema_id))},
        {"annotations", published_annotations(meta.at("annotations"))}};
    tools_.push_back(std::move(tool));
  }
  for (const ToolsetTable& table : toolset_tables()) {
    for (const ToolRow& row : table.tools) {
      if (find(row.name) == nullptr) {
        throw std::logic_error("tool " + std::string(row.name) +
                               " has a row but no schemas/tools/" + std::string(row.name) +
                               ".input.json");
      }
    }
  }
}

const ToolCatalog& ToolCatalog::builtin() {
  static const ToolCatalog catalog;
  return catalog;
}

const ToolDefinition* ToolCatalog::find(std::string_view name) const {
  for (const auto& tool : tools_) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

CatalogView ToolCatalog::view(const std::vector<Toolset>& toolsets,
                              const nlohmann::json& descriptor) const {
  std::vector<const ToolDefinition*> selected;
  for (const auto& tool : tools_) {
    if (std::find(toolsets.begin(), toolsets.end(), tool.toolset) == toolsets.end()) continue;
    if (tool.signal && !execution::offers_signal_over_mcp(descriptor, *tool.signal)) continue;
    selected.push_back(&tool);
  }
  return CatalogView(std::move(selected));
}

const ToolDefinition* CatalogView::find(std::string_view name) const {
  for (const ToolDefinition* tool : tools_) {
    if (tool->name == name) return tool;
  }
  return nullptr;
}

nlohmann::json CatalogView::page(const std::string* cursor, std::size_t page_size) const {
  std::size_t start = 0;
  if (cursor != nullptr) {
    bool valid =
        !cursor->empty() && cursor->size() <= 6 &&
        std::all_of(cursor->begin(), cursor->end(), [](char c) { return c >= '0' && c <= '9'; });
    if (valid) start = std::stoul(*cursor);
    if (!valid || start > tools_.size()) {
      throw MissionError(ErrorCode::invalid_argument, "invalid tools/list cursor '" + *cursor + "'",
                         "pass the nextCursor of the previous page, or no cursor to start over");
    }
  }
  std::size_t end = std::min(tools_.size(), start + page_size);
  nlohmann::json tools = nlohmann::json::array();
  for (std::size_t i = start; i < end; ++i) tools.push_back(tools_[i]->listing);
  nlohmann::json result = {{"tools", std::move(tools)}};
  if (end < tools_.size()) result["nextCursor"] = std::to_string(end);
  return result;
}

}  // namespace mission::daemon::mcp
