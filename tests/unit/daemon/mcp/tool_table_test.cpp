// The tools that exist are the same three ways: the schema files on disk,
// the catalog the daemon publishes, and the rows of the toolset tables.

#include "daemon/mcp/tool_table.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "daemon/mcp/tool_catalog.hpp"
#include "shared/vocabulary.hpp"

using namespace mission::daemon;
using nlohmann::json;

TEST_CASE("schemas on disk, the catalog and the tool tables name the same tools and toolsets") {
  std::map<std::string, std::string> on_disk;  // tool -> its x-mission toolset
  const std::filesystem::path tools =
      std::filesystem::path(MISSION_SOURCE_DIR) / "schemas" / "tools";
  for (const auto& entry : std::filesystem::directory_iterator(tools)) {
    const std::string file = entry.path().filename().string();
    const std::string suffix = ".input.json";
    if (file.size() <= suffix.size() ||
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const std::string name = file.substr(0, file.size() - suffix.size());
    CHECK(std::filesystem::exists(tools / (name + ".output.json")));
    json schema = json::parse(std::ifstream(entry.path()));
    on_disk[name] = schema.at("x-mission").at("toolset").get<std::string>();
  }

  std::map<std::string, std::string> in_catalog;
  for (const auto& tool : mcp::ToolCatalog::builtin().tools()) {
    in_catalog[tool.name] = std::string(mission::name_of(tool.toolset));
    CHECK(tool.row != nullptr);
  }

  std::map<std::string, std::string> in_tables;
  std::set<std::string> toolsets_with_tools;
  for (const auto& table : mcp::toolset_tables()) {
    for (const auto& row : table.tools) {
      CHECK(in_tables.count(std::string(row.name)) == 0);  // one row per tool
      in_tables[std::string(row.name)] = std::string(mission::name_of(table.toolset));
      toolsets_with_tools.insert(std::string(mission::name_of(table.toolset)));
    }
  }

  CHECK(on_disk.size() >= 15);
  CHECK(on_disk == in_catalog);
  CHECK(in_catalog == in_tables);
  // Every toolset of the vocabulary has tools, and nothing else does.
  std::set<std::string> vocabulary;
  for (const auto& entry : mission::vocabulary<mission::Toolset>()) vocabulary.emplace(entry.name);
  CHECK(toolsets_with_tools == vocabulary);
}

TEST_CASE("tools that write are the ones whose schemas take a request_id or an eventId") {
  for (const auto& tool : mcp::ToolCatalog::builtin().tools()) {
    INFO(tool.name);
    const json& properties = tool.listing.at("inputSchema").at("properties");
    const bool keyed = properties.contains("request_id") || properties.contains("eventId");
    CHECK(tool.row->writes == keyed);
    CHECK(tool.row->writes == !tool.listing.at("annotations").value("readOnlyHint", false));
  }
}
