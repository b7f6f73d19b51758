#pragma once
// The MCP tools mission can offer: each schema pair in schemas/tools/ (the
// input's "x-mission" naming its toolset) joined with its row in the
// toolset tables (tool_table.hpp), and the subset one session may see. A
// schema without a row, or a row without a schema, is refused when the
// catalog is built.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/mcp/tool_table.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::mcp {

struct ToolDefinition {
  std::string name;
  Toolset toolset = Toolset::signals;
  std::optional<SignalType> signal;  // for signal tools
  std::string input_schema_id;       // e.g. "tools/progress.input"
  std::string output_schema_id;
  // Fields naming alternative targets, of which a call takes exactly one
  // (x-mission "targets"), e.g. mission_id, workflow_id, parent_task_id.
  std::vector<std::string> targets;
  const ToolRow* row = nullptr;  // how it runs
  nlohmann::json listing;        // the tools/list entry, compacted
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
  // The tools of `toolsets`; of the signal tools, only those whose signal
  // descriptor in `descriptor` lists mcp-tool among its deliveries.
  CatalogView view(const std::vector<Toolset>& toolsets, const nlohmann::json& descriptor) const;

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

// compact_schema, without the root "required" (an error result's
// structuredContent, the error payload, must conform to it too), and with
// string enums published as strings.
nlohmann::json compact_output_schema(const nlohmann::json& schema);

}  // namespace mission::daemon::mcp
