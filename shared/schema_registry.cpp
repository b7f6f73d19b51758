#include "shared/schema_registry.hpp"

#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "shared/embedded_schemas.hpp"
#include "shared/schema_branches.hpp"

namespace mission {
namespace {

constexpr std::string_view kRefPrefix = "mission:";
// Guards against a reference cycle between schema files.
constexpr int kMaxRefDepth = 16;

}  // namespace

struct SchemaRegistry::Compiled {
  valijson::Schema schema;
  valijson::Validator validator;
  // For a schema whose root has oneOf or anyOf: its branches (in resolved_),
  // and the root without them, whose violations the validator words well;
  // a miss of the branches is worded by explain_branch_miss.
  const nlohmann::json* branches = nullptr;
  std::unique_ptr<Compiled> base;
};

namespace {

std::unique_ptr<SchemaRegistry::Compiled> compile(const nlohmann::json& schema) {
  auto compiled = std::make_unique<SchemaRegistry::Compiled>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(schema);
  parser.populateSchema(adapter, compiled->schema);
  for (const char* keyword : {"oneOf", "anyOf"}) {
    if (!schema.is_object() || !schema.contains(keyword) || schema.contains("allOf")) continue;
    nlohmann::json base = schema;
    base.erase(keyword);
    if (base.contains("oneOf") || base.contains("anyOf")) continue;  // both: left to the validator
    compiled->branches = &schema.at(keyword);
    compiled->base = compile(base);
  }
  return compiled;
}

// Every violation of `value`, in the validator's words.
std::vector<SchemaViolation> violations_of(SchemaRegistry::Compiled& compiled,
                                           const nlohmann::json& value) {
  valijson::adapters::NlohmannJsonAdapter target(value);
  valijson::ValidationResults results;
  compiled.validator.validate(compiled.schema, target, &results);
  std::vector<SchemaViolation> violations;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string path;
    for (const auto& part : error.context) {
      if (part == "<root>") continue;
      std::string segment = part;
      // valijson writes "[name]" or "[0]"; a JSON pointer reads better.
      if (segment.size() >= 2 && segment.front() == '[' && segment.back() == ']') {
        segment = segment.substr(1, segment.size() - 2);
        if (segment.size() >= 2 && segment.front() == '"')
          segment = segment.substr(1, segment.size() - 2);
      }
      path += "/" + segment;
    }
    violations.push_back({path.empty() ? "/" : path, error.description});
  }
  return violations;
}

}  // namespace

SchemaRegistry::SchemaRegistry(const std::vector<std::pair<std::string, std::string>>& documents) {
  owned_.reserve(documents.size());
  for (const auto& [id, text] : documents) {
    if (!nlohmann::json::accept(text))
      throw std::invalid_argument("schema " + id + " is not valid JSON");
    texts_.emplace(id, owned_.emplace_back(text));
  }
}

SchemaRegistry::SchemaRegistry(
    StaticTexts, const std::vector<std::pair<std::string, std::string_view>>& documents) {
  for (const auto& [id, text] : documents) texts_.emplace(id, text);
}

const nlohmann::json* SchemaRegistry::raw(std::string_view id) const {
  if (auto it = raw_.find(id); it != raw_.end()) return &it->second;
  auto text = texts_.find(id);
  if (text == texts_.end()) return nullptr;
  nlohmann::json parsed = nlohmann::json::parse(text->second, nullptr, false);
  if (parsed.is_discarded())
    throw std::invalid_argument("schema " + text->first + " is not valid JSON");
  return &raw_.emplace(text->first, std::move(parsed)).first->second;
}

SchemaRegistry::~SchemaRegistry() = default;

SchemaRegistry& SchemaRegistry::embedded() {
  static SchemaRegistry registry(StaticTexts{}, [] {
    std::vector<std::pair<std::string, std::string_view>> documents;
    for (std::size_t i = 0; i < kEmbeddedSchemaCount; ++i) {
      documents.emplace_back(kEmbeddedSchemas[i].id, kEmbeddedSchemas[i].text);
    }
    return documents;
  }());
  return registry;
}

bool SchemaRegistry::contains(std::string_view id) const {
  return texts_.find(id) != texts_.end();
}

std::vector<std::string> SchemaRegistry::ids_with_prefix(std::string_view prefix) const {
  std::vector<std::string> ids;
  for (auto it = texts_.lower_bound(prefix); it != texts_.end() && it->first.starts_with(prefix);
       ++it) {
    ids.push_back(it->first);
  }
  return ids;
}

nlohmann::json SchemaRegistry::resolve(const nlohmann::json& node, int depth) const {
  if (depth > kMaxRefDepth) throw std::invalid_argument("schema $ref nesting is too deep");
  if (node.is_object()) {
    auto ref = node.find("$ref");
    if (ref != node.end() && ref->is_string() &&
        std::string_view(ref->get_ref<const std::string&>()).starts_with(kRefPrefix)) {
      std::string target = ref->get<std::string>().substr(kRefPrefix.size());
      const nlohmann::json* found = raw(target);
      if (found == nullptr) throw std::out_of_range("schema $ref to unknown " + target);
      nlohmann::json inlined = resolve(*found, depth + 1);
      inlined.erase("$schema");
      inlined.erase("$id");
      // Sibling keywords of the $ref (a description, say) win over the target's.
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (it.key() != "$ref") inlined[it.key()] = resolve(it.value(), depth + 1);
      }
      return inlined;
    }
    nlohmann::json out = nlohmann::json::object();
    for (auto it = node.begin(); it != node.end(); ++it) out[it.key()] = resolve(it.value(), depth);
    return out;
  }
  if (node.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(resolve(item, depth));
    return out;
  }
  return node;
}

const nlohmann::json& SchemaRegistry::resolved(std::string_view id) const {
  if (auto it = resolved_.find(id); it != resolved_.end()) return it->second;
  const nlohmann::json* document = raw(id);
  if (document == nullptr) throw std::out_of_range("no schema named " + std::string(id));
  return resolved_.emplace(std::string(id), resolve(*document, 0)).first->second;
}

std::vector<SchemaViolation> SchemaRegistry::validate(std::string_view id,
                                                      const nlohmann::json& value) const {
  auto it = compiled_.find(id);
  if (it == compiled_.end()) it = compiled_.emplace(std::string(id), compile(resolved(id))).first;
  Compiled& compiled = *it->second;

  // The validator lives with the schema: it caches the compiled regular
  // expressions of "pattern", which would otherwise be compiled per call.
  // Valid values, the common case, take the fast path that stops at the
  // first failure; only invalid ones are validated again for every message.
  valijson::adapters::NlohmannJsonAdapter target(value);
  if (compiled.validator.validate(compiled.schema, target, nullptr)) return {};
  if (compiled.base) {
    // valijson reports each branch's failures, the branches nobody meant
    // included; say instead what the meant one lacks.
    std::vector<SchemaViolation> violations = violations_of(*compiled.base, value);
    if (auto miss = explain_branch_miss(*compiled.branches, value)) {
      violations.push_back({miss->path, miss->message});
      return violations;
    }
    if (!violations.empty()) return violations;
  }
  return violations_of(compiled, value);
}

std::string describe(const std::vector<SchemaViolation>& violations) {
  // valijson reports the outermost failure first ("failed to match all
  // properties"); the innermost one is what the caller must fix.
  if (violations.empty()) return "valid";
  const SchemaViolation* best = &violations.front();
  for (const auto& v : violations) {
    if (v.path.size() > best->path.size()) best = &v;
  }
  std::string text = best->path + ": " + best->message;
  if (violations.size() > 1) text += " (" + std::to_string(violations.size() - 1) + " more)";
  return text;
}

}  // namespace mission
