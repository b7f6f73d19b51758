// The ToolCatalog: built from schemas/tools, scoped by the protocol
// descriptor, paged, and small enough to publish.

#include "daemon/mcp/tool_catalog.hpp"

#include <catch2/catch.hpp>

#include "daemon/execution/protocol_descriptor.hpp"
#include "shared/error_code.hpp"
#include "shared/schema_registry.hpp"

using namespace mission::daemon;
using nlohmann::json;

namespace {

json descriptor_for(mission::Delivery delivery) {
  return execution::build_protocol_descriptor(
      {"ae-test", "/tmp", delivery, {mission::Toolset::signals}});
}

const std::vector<mission::Toolset> kSignals{mission::Toolset::signals};

std::vector<std::string> names(const mcp::CatalogView& view) {
  std::vector<std::string> out;
  for (const auto* tool : view.tools()) out.push_back(tool->name);
  return out;
}

}  // namespace

TEST_CASE("the catalog has one tool per signal, each with both schemas") {
  const auto& catalog = mcp::ToolCatalog::builtin();
  for (const auto& signal : execution::signal_descriptors()) {
    INFO(mission::name_of(signal.type));
    const mcp::ToolDefinition* tool = catalog.find(mission::name_of(signal.type));
    REQUIRE(tool != nullptr);
    CHECK(tool->toolset == mission::Toolset::signals);
    CHECK(tool->signal == signal.type);
    CHECK(mission::SchemaRegistry::embedded().contains(tool->output_schema_id));
  }
}

TEST_CASE("a session sees only the tools its descriptor offers over MCP") {
  const auto& catalog = mcp::ToolCatalog::builtin();
  auto mcp_view = catalog.view(kSignals, descriptor_for(mission::Delivery::mcp_tool));
  CHECK(mcp_view.tools().size() == 7);
  CHECK(mcp_view.find("progress") != nullptr);

  // A stdout-marker execution's signals are not deliverable as tools.
  CHECK(catalog.view(kSignals, descriptor_for(mission::Delivery::stdout_marker)).tools().empty());
  // Nor are the tools of a toolset the execution did not enable.
  CHECK(catalog.view({}, descriptor_for(mission::Delivery::mcp_tool)).tools().empty());

  // One signal dropped from the descriptor drops its tool, and only it.
  json descriptor = descriptor_for(mission::Delivery::mcp_tool);
  for (auto& signal : descriptor["signals"]) {
    if (signal["type"] == "blocked") signal["deliveries"] = json::array({"stdout-marker"});
  }
  auto partial = catalog.view(kSignals, descriptor);
  CHECK(partial.find("blocked") == nullptr);
  CHECK(partial.tools().size() == 6);
}

TEST_CASE("tools/list pages follow nextCursor to the end, and bad cursors are refused") {
  auto view =
      mcp::ToolCatalog::builtin().view(kSignals, descriptor_for(mission::Delivery::mcp_tool));
  std::vector<std::string> seen;
  std::string cursor;
  const std::string* next = nullptr;
  for (int page = 0; page < 10; ++page) {
    json result = view.page(next, 3);
    for (const auto& tool : result["tools"]) seen.push_back(tool["name"]);
    if (!result.contains("nextCursor")) break;
    cursor = result["nextCursor"];
    next = &cursor;
  }
  CHECK(seen == names(view));
  for (std::string bad : {"", "x1", "99", "-1", "1234567"}) {
    INFO(bad);
    CHECK_THROWS_AS(view.page(&bad, 3), mission::MissionError);
  }
}

TEST_CASE("published tools keep the contract and drop prose and bounds") {
  for (const auto& tool : mcp::ToolCatalog::builtin().tools()) {
    INFO(tool.name);
    const json& listing = tool.listing;
    CHECK(listing["inputSchema"]["additionalProperties"] == false);
    CHECK(listing["inputSchema"]["type"] == "object");
    CHECK(listing["outputSchema"]["type"] == "object");
    CHECK(!listing["inputSchema"].contains("x-mission"));
    CHECK(!listing["inputSchema"].contains("$schema"));
    CHECK(listing["inputSchema"].dump().find("maxLength") == std::string::npos);
    // MCP's default is destructive, so only stop_attempt, which kills an
    // agent, leaves it out; every other tool says it is not.
    if (tool.name == "stop_attempt") {
      CHECK(!listing["annotations"].contains("destructiveHint"));
    } else {
      CHECK(listing["annotations"]["destructiveHint"] == false);
    }
    CHECK(listing["description"].get<std::string>().rfind("Use when:", 0) == 0);
    // Validation still uses the full schema, bounds included.
    json too_long = {{"summary", std::string(501, 'x')}};
    if (tool.name == "progress") {
      CHECK(!mission::SchemaRegistry::embedded().validate(tool.input_schema_id, too_long).empty());
    }
  }
}

TEST_CASE("the default catalog stays under 800 bytes a tool in tools/list") {
  auto view = mcp::ToolCatalog::builtin().view(
      {execution::default_toolsets().begin(), execution::default_toolsets().end()},
      descriptor_for(mission::Delivery::mcp_tool));
  std::size_t total = 0;
  for (const auto* tool : view.tools()) total += tool->listing.dump().size();
  REQUIRE(view.tools().size() == 15);  // 7 signals and 8 tracking tools
  CHECK(total / view.tools().size() < 800);
  CHECK(view.page(nullptr, 100).dump().size() <= 12 * 1024);
}

TEST_CASE("the planning and templates toolsets stay under 800 bytes a tool, none over 1 KB") {
  auto view =
      mcp::ToolCatalog::builtin().view({mission::Toolset::planning, mission::Toolset::templates},
                                       descriptor_for(mission::Delivery::mcp_tool));
  REQUIRE(view.tools().size() ==
          23);  // seed 003's workflow, task, checkpoint, context, query, repository, template tools
  std::size_t total = 0;
  for (const auto* tool : view.tools()) {
    INFO(tool->name);
    const std::size_t size = tool->listing.dump().size();
    // workflow_create lists its source types, a closed set a client can offer.
    CHECK(size <= 1024);
    total += size;
  }
  CHECK(total / view.tools().size() < 800);
}

TEST_CASE("the coordination toolset is opt-in, under 800 bytes a tool, none over 1 KB") {
  const auto& catalog = mcp::ToolCatalog::builtin();
  auto defaults =
      catalog.view({execution::default_toolsets().begin(), execution::default_toolsets().end()},
                   descriptor_for(mission::Delivery::mcp_tool));
  CHECK(defaults.find("message_wait") == nullptr);
  auto view =
      catalog.view({mission::Toolset::coordination}, descriptor_for(mission::Delivery::mcp_tool));
  CHECK(view.tools().size() == 17);
  std::size_t total = 0;
  for (const auto* tool : view.tools()) {
    INFO(tool->name << " " << tool->listing.dump().size());
    // Seed 003's parameter lists are long; what the catalog publishes of them is not.
    CHECK(tool->listing.dump().size() < 1024);
    total += tool->listing.dump().size();
  }
  CHECK(total / view.tools().size() < 800);
}

TEST_CASE("claims and workspaces: opt-in, each tool within 800 bytes of tools/list") {
  const auto& catalog = mcp::ToolCatalog::builtin();
  auto defaults =
      catalog.view({execution::default_toolsets().begin(), execution::default_toolsets().end()},
                   descriptor_for(mission::Delivery::mcp_tool));
  CHECK(defaults.find("task_claim") == nullptr);
  CHECK(defaults.find("workspace_create") == nullptr);
  auto coordination =
      catalog.view({mission::Toolset::coordination}, descriptor_for(mission::Delivery::mcp_tool));
  for (const char* name : {"task_claim", "task_release", "task_get_available"}) {
    const auto* tool = coordination.find(name);
    REQUIRE(tool != nullptr);
    INFO(name << " " << tool->listing.dump().size());
    CHECK(tool->listing.dump().size() <= 800);
  }
  auto view =
      catalog.view({mission::Toolset::workspaces}, descriptor_for(mission::Delivery::mcp_tool));
  CHECK(view.tools().size() == 5);
  for (const auto* tool : view.tools()) {
    INFO(tool->name << " " << tool->listing.dump().size());
    CHECK(tool->listing.dump().size() <= 800);
  }
}
