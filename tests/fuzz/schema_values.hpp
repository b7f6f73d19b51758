#pragma once
// Values shaped by a JSON Schema, with hostile contents chosen by a fuzz
// input: the walk follows types, enums, consts, oneOf/anyOf branches,
// required and optional properties, lengths, bounds and the simple
// patterns the tool schemas use, so most values get past validation to
// the decoders and handlers; what fills them is an edge (a bound, one
// past it, 0, -1, INT64 max, a cursor past the end, an id of another
// record or kind, an overlong or unicode string, deep nesting), and, when
// bounds may be crossed, a value of the wrong type or bytes that are not
// UTF-8.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_choices.hpp"

namespace mission::fuzz {

// What the values may name.
struct ValuePools {
  std::vector<std::string> ids;    // ids of records that exist, of every kind
  std::vector<std::string> paths;  // absolute paths inside the fixture's tree
  std::vector<std::string> names;  // a few short names (plan tasks, branches)
};

class SchemaValues {
 public:
  // Within bounds, every value fits its schema (lengths, ranges, item
  // counts, patterns, types, required fields), and what is hostile is only
  // what the schema allows: most calls get past validation. Otherwise a
  // value may also cross a bound or have the wrong type.
  // `tool` tells what kind of record its "id" field names.
  SchemaValues(FuzzChoices& choices, const ValuePools& pools, std::string_view tool,
               bool within_bounds)
      : choices_(choices), pools_(pools), tool_(tool), within_(within_bounds) {}

  // Bytes of text (and of copies of array items) one value gets: past the
  // frame limit (1 MiB), so that is met too, but not by much.
  static constexpr std::size_t kMaxBytes = 1536 * 1024;

  // A value for `schema` (with every $ref resolved), found under `key` in
  // its object ("" at the root, "name[]" for an item of array "name").
  nlohmann::json value(const nlohmann::json& schema, std::string_view key = "", int depth = 0);

  // `message` as one line of JSON, with the bytes no JSON value can hold
  // (invalid UTF-8, lone surrogate escapes) spliced in where value() left
  // their placeholders.
  static std::string dump_with_raw(const nlohmann::json& message);

 private:
  nlohmann::json object_value(const nlohmann::json& schema, int depth);
  nlohmann::json string_value(const nlohmann::json& schema, std::string_view key);
  nlohmann::json integer_value(const nlohmann::json& schema, std::string_view key);
  nlohmann::json number_value(const nlohmann::json& schema);
  nlohmann::json array_value(const nlohmann::json& schema, std::string_view key, int depth);
  nlohmann::json wrong_type(std::string_view type);
  nlohmann::json free_form(int depth);
  std::string hostile_text(std::size_t max_length);
  // `text` cut or padded to the bounds, counted in characters.
  static void fit_length(std::string& text, std::size_t min_length, std::size_t max_length);
  // `text` cut to at most `max_bytes` bytes, between characters.
  static void cut_bytes(std::string& text, std::size_t max_bytes);
  // An id for field `key`: mostly one of a record of the kind it names.
  std::string record_id(std::string_view key);
  std::string cursor_text();

  FuzzChoices& choices_;
  const ValuePools& pools_;
  std::string_view tool_;
  bool within_;
  std::size_t bytes_left_ = kMaxBytes;
};

}  // namespace mission::fuzz
