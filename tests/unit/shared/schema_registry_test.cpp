#include "shared/schema_registry.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "shared/terminal_limits.hpp"

using mission::SchemaRegistry;
using nlohmann::json;

TEST_CASE("the embedded control schemas validate hello params") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  REQUIRE(registry.contains("control/hello.params"));
  CHECK(registry.validate("control/hello.params", {{"protocol", 1}}).empty());
  CHECK(registry
            .validate("control/hello.params",
                      {{"protocol", 1}, {"client", {{"name", "x"}, {"version", "1"}}}})
            .empty());

  auto missing = registry.validate("control/hello.params", json::object());
  REQUIRE(!missing.empty());
  CHECK(mission::describe(missing).find("protocol") != std::string::npos);

  auto wrong_type = registry.validate("control/hello.params", {{"protocol", "one"}});
  CHECK(!wrong_type.empty());

  auto unknown_key = registry.validate("control/hello.params", {{"protocol", 1}, {"extra", 1}});
  REQUIRE(!unknown_key.empty());
  CHECK(mission::describe(unknown_key).find("extra") != std::string::npos);

  auto nested =
      registry.validate("control/hello.params", {{"protocol", 1}, {"client", {{"version", "1"}}}});
  REQUIRE(!nested.empty());
  CHECK(nested[0].path.find("client") != std::string::npos);
}

TEST_CASE("mission: references are inlined and validated through") {
  SchemaRegistry registry({
      {"common/summary", R"({"type":"string","minLength":1,"maxLength":5})"},
      {"signal", R"({"type":"object","properties":{"summary":{"$ref":"mission:common/summary"}},
                    "required":["summary"],"additionalProperties":false})"},
  });
  CHECK(registry.resolved("signal")["properties"]["summary"]["maxLength"] == 5);
  CHECK(registry.validate("signal", {{"summary", "ok"}}).empty());
  CHECK(!registry.validate("signal", {{"summary", "far too long"}}).empty());
  CHECK(!registry.validate("signal", {{"summary", ""}}).empty());
  CHECK(registry.ids_with_prefix("common/") == std::vector<std::string>{"common/summary"});
  CHECK_THROWS_AS(registry.resolved("nope"), std::out_of_range);
}

TEST_CASE("a schema document that is not JSON is refused") {
  std::vector<std::pair<std::string, std::string>> documents{{"bad", "{"}};
  CHECK_THROWS_AS(SchemaRegistry(documents), std::invalid_argument);
}

TEST_CASE("signal schemas accept their payloads and reject unknown keys") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  const std::vector<std::pair<std::string, json>> valid{
      {"progress", {{"summary", "tests pass"}, {"detail", "12 of 12"}}},
      {"needs_input", {{"question", "Which database?"}, {"choices", {"sqlite", "postgres"}}}},
      {"blocked", {{"reason", "no credentials"}}},
      {"ready_for_verification", {{"summary", "done, please review"}}},
      {"completed_claim", {{"summary", "implemented"}}},
      {"failed_claim", {{"reason", "cannot build"}}},
      {"message",
       {{"text", "hello"}, {"artifacts", {{{"path", "a.c"}, {"activity", "modified"}}}}}},
  };
  for (auto [type, payload] : valid) {
    INFO(type);
    payload["type"] = type;
    CHECK(registry.validate("signals/" + type, payload).empty());
    json extra = payload;
    extra["unexpected"] = true;
    CHECK(!registry.validate("signals/" + type, extra).empty());
    json wrong_type = payload;
    wrong_type["type"] = type == "message" ? "progress" : "message";
    CHECK(!registry.validate("signals/" + type, wrong_type).empty());
  }
  CHECK(!registry.validate("signals/progress", {{"type", "progress"}, {"summary", ""}}).empty());
  CHECK(!registry
             .validate("signals/message", {{"type", "message"},
                                           {"text", "x"},
                                           {"artifacts", {{{"path", "a"}, {"activity", "ate"}}}}})
             .empty());
}

TEST_CASE("a oneOf miss names what the branch its discriminator chose lacks") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  auto send =
      registry.validate("tools/follow_up.input", {{"attempt_id", "at-1"}, {"mode", "send"}});
  CHECK(mission::describe(send) == "/prompt: required when mode is 'send'");
  auto cancel = registry.validate("tools/follow_up.input",
                                  {{"attempt_id", "at-1"}, {"mode", "cancel"}, {"prompt", "p"}});
  CHECK(mission::describe(cancel) == "/prompt: must be left out when mode is 'cancel'");
  // Violations outside the branches are still named, in the validator's words.
  auto both = registry.validate("tools/follow_up.input", {{"mode", "queue"}, {"extra", 1}});
  auto named = [&](const std::string& word) {
    return std::any_of(both.begin(), both.end(), [&](const mission::SchemaViolation& v) {
      return (v.path + v.message).find(word) != std::string::npos;
    });
  };
  CHECK(named("prompt"));
  CHECK(named("extra"));
  CHECK(named("attempt_id"));
  CHECK(registry
            .validate("tools/follow_up.input",
                      {{"attempt_id", "at-1"}, {"mode", "queue"}, {"prompt", "p"}})
            .empty());
}

TEST_CASE("an anyOf miss names the fields of the alternatives the call began") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  CHECK(mission::describe(
            registry.validate("tools/start_task.input", {{"name", "n"}, {"mission_id", "ms-1"}})) ==
        "/goal: required with name and mission_id");
  CHECK(mission::describe(
            registry.validate("tools/start_task.input", {{"name", "n"}, {"goal", "g"}})) ==
        "/: one of mission_id, workflow_id or parent_task_id is required with name and goal");
  CHECK(
      mission::describe(registry.validate("tools/start_task.input", {{"phase", 1}})) ==
      "/: one of task_id; name, goal and mission_id; name, goal and workflow_id; or name, goal and "
      "parent_task_id is required");
}

TEST_CASE("branches of other shapes keep the validator's words") {
  std::vector<std::pair<std::string, std::string>> documents{
      {"typed", R"({"type":"object","oneOf":[{"properties":{"a":{"type":"string"}}},
                                             {"properties":{"a":{"type":"integer"}}}]})"}};
  SchemaRegistry registry(documents);
  auto violations = registry.validate("typed", {{"a", true}});
  REQUIRE_FALSE(violations.empty());
  CHECK(mission::describe(violations).find("/a") != std::string::npos);
}

TEST_CASE("the terminal size in the control schemas holds the terminal limits") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  for (const char* schema : {"control/terminal.attach.params", "control/execution.launch.params"}) {
    INFO(schema);
    const json& properties = registry.resolved(schema).at("properties");
    const json& size =
        properties.at(properties.contains("size") ? "size" : "terminal").at("properties");
    CHECK(size.at("rows").at("minimum") == mission::limits::kMinTerminalRows);
    CHECK(size.at("rows").at("maximum") == mission::limits::kMaxTerminalRows);
    CHECK(size.at("columns").at("minimum") == mission::limits::kMinTerminalColumns);
    CHECK(size.at("columns").at("maximum") == mission::limits::kMaxTerminalColumns);
  }
}
