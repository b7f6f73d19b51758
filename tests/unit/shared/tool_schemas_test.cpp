// The tool schema files under schemas/tools/ follow the rules every MCP tool
// must meet (DESIGN.md section 5), and agree with the signal schemas.

#include <catch2/catch.hpp>
#include <cctype>
#include <set>

#include "shared/schema_registry.hpp"

using mission::SchemaRegistry;
using nlohmann::json;

namespace {

std::vector<std::string> tool_names(SchemaRegistry& registry) {
  std::vector<std::string> names;
  for (const auto& id : registry.ids_with_prefix("tools/")) {
    const std::string suffix = ".input";
    if (id.size() > suffix.size() &&
        id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(id.substr(6, id.size() - 6 - suffix.size()));
    }
  }
  return names;
}

}  // namespace

TEST_CASE("every tool has a titled, templated, closed input schema and an output schema") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  auto names = tool_names(registry);
  REQUIRE(names.size() >= 7);
  for (const auto& name : names) {
    INFO(name);
    const json& input = registry.resolved("tools/" + name + ".input");
    CHECK(!input.at("title").get<std::string>().empty());
    CHECK(input.at("additionalProperties") == false);
    CHECK(input.at("type") == "object");
    const std::string description = input.at("description");
    std::size_t at = 0;
    for (const char* section : {"Use when:", "Required:", "Optional:", "Next:", "Avoid:"}) {
      auto found = description.find(section, at);
      CHECK(found != std::string::npos);
      if (found != std::string::npos) at = found;
    }
    CHECK(input.at("x-mission").at("toolset").is_string());
    CHECK(input.at("x-mission").at("annotations").is_object());
    REQUIRE(registry.contains("tools/" + name + ".output"));
    CHECK(registry.resolved("tools/" + name + ".output").at("type") == "object");
  }
}

TEST_CASE("signal tools take exactly the signal's fields plus an optional eventId") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  for (const auto& name : tool_names(registry)) {
    const json& input = registry.resolved("tools/" + name + ".input");
    if (input.at("x-mission").at("toolset") != "signals") continue;
    INFO(name);
    const json& signal = registry.resolved("signals/" + name);
    json tool_properties = input.at("properties");
    tool_properties.erase("eventId");
    json signal_properties = signal.at("properties");
    signal_properties.erase("type");
    CHECK(tool_properties == signal_properties);
    json signal_required = signal.at("required");
    signal_required.erase(std::remove(signal_required.begin(), signal_required.end(), "type"),
                          signal_required.end());
    CHECK(input.at("required") == signal_required);
  }
}

namespace {

// The text of one section of a templated description, e.g. "Required:"
// up to the next section.
std::string section_of(const std::string& description, const std::string& section,
                       const std::string& next) {
  auto start = description.find(section);
  if (start == std::string::npos) return {};
  start += section.size();
  auto end = description.find(next, start);
  return description.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Whether `field` appears in `text` as a whole word (not inside a longer name).
bool names_field(const std::string& text, const std::string& field) {
  auto is_name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (auto at = text.find(field); at != std::string::npos; at = text.find(field, at + 1)) {
    bool starts = at == 0 || !is_name_char(text[at - 1]);
    bool ends = at + field.size() == text.size() || !is_name_char(text[at + field.size()]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every tool's description names each field of its schema, required ones under Required") {
  SchemaRegistry& registry = SchemaRegistry::embedded();
  for (const auto& name : tool_names(registry)) {
    INFO(name);
    const json& input = registry.resolved("tools/" + name + ".input");
    const std::string description = input.at("description");
    const std::string required = section_of(description, "Required:", "Optional:");
    const std::string optional = section_of(description, "Optional:", "Next:");
    std::set<std::string> must_list;
    for (const auto& field : input.value("required", json::array())) must_list.insert(field);
    // A oneOf or anyOf of targets: each alternative belongs under Required too.
    for (const char* alternatives : {"oneOf", "anyOf"}) {
      for (const auto& branch : input.value(alternatives, json::array())) {
        for (const auto& field : branch.value("required", json::array())) must_list.insert(field);
      }
    }
    for (const auto& [field, schema] : input.at("properties").items()) {
      INFO(field);
      if (must_list.count(field)) {
        CHECK(names_field(required, field));
        CHECK_FALSE(names_field(optional, field));
      } else {
        CHECK(names_field(optional, field));
        CHECK_FALSE(names_field(required, field));
      }
    }
  }
}
