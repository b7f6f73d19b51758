// The control-API table's contract: every method names a params and a
// result schema that exist, and a result schema refuses a reply that lost
// what its callers read.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "daemon/rpc/dispatcher.hpp"
#include "shared/schema_registry.hpp"

using mission::SchemaRegistry;
using nlohmann::json;

namespace {

const mission::daemon::MethodEntry& method(std::string_view name) {
  for (const auto& entry : mission::daemon::control_methods()) {
    if (entry.name == name) return entry;
  }
  FAIL("no control method " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("every control method names a params and a result schema that are embedded") {
  const SchemaRegistry& registry = SchemaRegistry::embedded();
  for (const auto& entry : mission::daemon::control_methods()) {
    INFO(entry.name);
    CHECK(registry.contains(entry.params_schema));
    REQUIRE(registry.contains(entry.result_schema));
    CHECK(entry.result_schema == "control/" + std::string(entry.name) + ".result");
    // Resolving inlines every reference: a dangling one throws here.
    CHECK(registry.resolved(entry.result_schema).is_object());
  }
}

TEST_CASE("a result schema refuses a reply without the keys its callers read") {
  const SchemaRegistry& registry = SchemaRegistry::embedded();
  const std::string_view schema = method("execution.get").result_schema;
  auto missing = registry.validate(schema, json::object());
  REQUIRE_FALSE(missing.empty());
  CHECK(mission::describe(missing).find("execution") != std::string::npos);
  // An execution that lost its state is refused through the shared field.
  json execution = {{"adapter", "generic"},
                    {"claims", json::array()},
                    {"command", json::array()},
                    {"createdAt", "2026-01-01T00:00:00Z"},
                    {"cwd", "/"},
                    {"delivery", "stdio"},
                    {"id", "e1"},
                    {"kind", "agent"},
                    {"mcpSessionCount", 0},
                    {"mcpSessions", json::array()},
                    {"observations", 0},
                    {"state", "running"},
                    {"toolsets", json::array()},
                    {"unreadMessages", 0},
                    {"updatedAt", "2026-01-01T00:00:00Z"}};
  CHECK(registry.validate(schema, {{"execution", execution}}).empty());
  execution.erase("state");
  CHECK_FALSE(registry.validate(schema, {{"execution", execution}}).empty());
}
