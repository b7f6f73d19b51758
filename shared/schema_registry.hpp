#pragma once
// The schemas of schemas/ (embedded at build time), and validation with
// valijson. Not thread-safe: used from the daemon's loop thread only.

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mission {

struct SchemaViolation {
  std::string path;     // JSON pointer-like location, e.g. "/signal/summary"
  std::string message;  // what is wrong there
};

class SchemaRegistry {
 public:
  // A registry of the given documents, keyed by id. Throws std::invalid_argument
  // if a document is not valid JSON.
  explicit SchemaRegistry(const std::vector<std::pair<std::string, std::string>>& documents);
  ~SchemaRegistry();
  SchemaRegistry(const SchemaRegistry&) = delete;
  SchemaRegistry& operator=(const SchemaRegistry&) = delete;

  // A schema ready to validate with (schema_registry.cpp).
  struct Compiled;

  // The registry of the schemas embedded in this binary.
  static SchemaRegistry& embedded();

  bool contains(std::string_view id) const;

  // Ids of every schema whose id starts with `prefix`, sorted.
  std::vector<std::string> ids_with_prefix(std::string_view prefix) const;

  // The schema `id` with every `{"$ref": "mission:<other id>"}` replaced by
  // that schema, so clients that do not resolve references see all of it.
  // Throws std::out_of_range for an unknown id.
  const nlohmann::json& resolved(std::string_view id) const;

  // Validates `value` against schema `id`; empty means valid.
  std::vector<SchemaViolation> validate(std::string_view id, const nlohmann::json& value) const;

 private:
  // A registry of texts that outlive it (the embedded ones), not copied.
  struct StaticTexts {};
  SchemaRegistry(StaticTexts,
                 const std::vector<std::pair<std::string, std::string_view>>& documents);
  nlohmann::json resolve(const nlohmann::json& node, int depth) const;
  // Schema `id` parsed, on first use: a daemon that serves a few methods
  // never holds the trees of the other hundred and fifty schemas.
  const nlohmann::json* raw(std::string_view id) const;

  std::vector<std::string> owned_;  // texts of the copying constructor
  std::map<std::string, std::string_view, std::less<>> texts_;
  mutable std::map<std::string, nlohmann::json, std::less<>> raw_;
  mutable std::map<std::string, nlohmann::json, std::less<>> resolved_;
  mutable std::map<std::string, std::unique_ptr<Compiled>, std::less<>> compiled_;
};

// One line that sums up `violations` for an error message.
std::string describe(const std::vector<SchemaViolation>& violations);

}  // namespace mission
