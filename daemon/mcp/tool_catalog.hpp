#pragma once
// The MCP tools mission can offer, read from schemas/tools/ (one input and one
// output schema per tool, the input's "x-mission" naming its toolset), and the
// subset one session may see. There is no hand-kept list of tools.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::mcp {

struct ToolDefinition {
  std::string name;
  std::string toolset;
  std::string signal;             // the signal type for signal tools, else empty
  std::string input_schema_id;    // e.g. "tools/progress.input"
  std::string output_schema_id;
  nlohmann::json listing;         // the tools/list entry, compacted
};

// The tools one session may list and call, in catalog order.
class CatalogView {
 public:
  CatalogView() = default;
  explicit CatalogView(std::vector<const ToolDefinition*> tools) : tools_(std::move(tools)) {}

  const ToolDefinition* find(std::string_view name) const;
  const std::vector<const ToolDefinition*>& tools() const { return tools_; }

  // One tools/list page: {tools, nextCursor?}. The cursor is opaque to
  // clients (a decimal offset); a bad one throws MissionError invalid_argument.
  nlohmann::json page(const std::string* cursor, std::size_t page_size) const;

 private:
  std::vector<const ToolDefinition*> tools_;
};

class ToolCatalog {
 public:
  // The catalog of the schemas embedded in this binary.
  static const ToolCatalog& builtin();

  const std::vector<ToolDefinition>& tools() const { return tools_; }
  const ToolDefinition* find(std::string_view name) const;
  // Every toolset name that has at least one tool, sorted.
  std::vector<std::string> toolsets() const;

  // The tools of `toolsets`; of the signal tools, only those whose signal
  // descriptor in `descriptor` lists mcp-tool among its deliveries.
  CatalogView view(const std::vector<std::string>& toolsets, const nlohmann::json& descriptor) const;

 private:
  ToolCatalog();
  std::vector<ToolDefinition> tools_;
};

// A published schema: the validation schema without what only mission reads
// ($schema, $id, x-mission), without prose and bounds (descriptions, length,
// numeric range, item and pattern limits, which the daemon still enforces
// and reports), and
// without the root title, which the tool entry carries once. Types, enums,
// required fields and the root additionalProperties stay.
nlohmann::json compact_schema(const nlohmann::json& schema);

// compact_schema, and without the root "required": an error result's
// structuredContent (the error payload) must conform to it too.
nlohmann::json compact_output_schema(const nlohmann::json& schema);

}  // namespace mission::daemon::mcp
