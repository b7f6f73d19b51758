#include "tests/fuzz/schema_values.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "shared/limits.hpp"

namespace mission::fuzz {
namespace {

using nlohmann::json;

// Longest text made for a string without maxLength, and the most items of
// an array without maxItems: enough to pass any bound the daemon keeps in
// its code, small enough to keep a call cheap.
constexpr std::size_t kUnboundedText = 70000;
constexpr std::size_t kUnboundedItems = 600;
// Deepest free-form value made: past kMaxJsonDepth (128) with the
// envelope's own levels, so the frame's depth check is met from both sides
// as the arguments' (kMaxToolArgumentDepth, 64) is.
constexpr int kMaxFreeFormDepth = 140;
// Past this depth of the schema walk a value is a leaf.
constexpr int kMaxSchemaDepth = 12;

// The bytes a placeholder stands for: none of them is a JSON value's
// content, since nlohmann keeps strings as valid UTF-8, so they are spliced
// into the frame's text. Two are valid JSON (escapes a parser must join).
constexpr std::array<std::string_view, 9> kRawPieces = {
    "\xff",              // never UTF-8
    "\xc0\xaf",          // an overlong '/'
    "\xed\xa0\x80",      // a surrogate encoded as UTF-8
    "\xf4\x90\x80\x80",  // past U+10FFFF
    "\x80",              // a lone continuation byte
    "\\ud800",           // a lone high surrogate escape
    "\\udc00\\ud800",    // a pair in the wrong order
    "\\ud83d\\ude00",    // a valid pair (an emoji)
    "\\u0000",           // NUL, escaped
};
// Marks a placeholder inside a string: dumped as \u0001<index>\u0001.
constexpr char kRawMark = '\x01';

// Short pieces of text that have tripped parsers, terminals and sanitisers.
constexpr std::array<std::string_view, 16> kUnicodePieces = {
    std::string_view("\0", 1),   // NUL
    "\xe2\x80\xae",              // RIGHT-TO-LEFT OVERRIDE
    "\xe2\x80\x8f",              // RIGHT-TO-LEFT MARK
    "\xcc\x81\xcc\x81\xcc\x81",  // combining acute accents
    "\xe2\x80\x8d",              // ZERO WIDTH JOINER
    "\xef\xbb\xbf",              // BOM
    "\xf0\x9f\x98\x80",          // an emoji (a surrogate pair in UTF-16)
    "\xef\xbf\xbf",              // U+FFFF
    "\xf4\x8f\xbf\xbf",          // U+10FFFF
    "\x1b[31m\x1b]0;title\x07",  // terminal escapes
    "\r\n\t\b\f",                // control characters
    "\\\"'`$(){}%s%n",           // quoting and format characters
    "../../",                    // a way up
    "\xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a\xd8\xa9",  // Arabic
    "\xe4\xb8\xad\xe6\x96\x87",                                  // CJK
    "\xc3\xa9",                                                  // a two-byte letter
};

constexpr std::array<std::string_view, 12> kWords = {"x",         "alpha",      "beta",   "main",
                                                     "feature/x", "src/main.c", "README", "*",
                                                     "src/**",    "-",          ".",      "HEAD"};

// The field a key names, without the "[]" of an item.
std::string_view field_of(std::string_view key) {
  if (key.ends_with("[]")) key.remove_suffix(2);
  return key;
}

bool names_a_record(std::string_view key) {
  std::string_view field = field_of(key);
  return field == "id" || field.ends_with("_id") || field.ends_with("_ids");
}

bool names_a_place(std::string_view key) {
  std::string_view field = field_of(key);
  return field == "path" || field.ends_with("_path") || field == "cwd" || field == "root";
}

bool names_a_position(std::string_view key) {
  std::string_view field = field_of(key);
  return field == "cursor" || field.ends_with("_cursor") || field == "offset" ||
         field.ends_with("_index") || field == "since_sequence";
}

std::size_t bound(const json& schema, const char* keyword, std::size_t otherwise) {
  auto found = schema.find(keyword);
  if (found == schema.end() || !found->is_number_unsigned()) return otherwise;
  return found->get<std::size_t>();
}

// Text matching the simple patterns of the schemas: literals, [classes]
// with ranges, (a|b) alternatives, each with an optional {m,n}, *, + or ?.
// A pattern it cannot read gives "".
std::string text_matching(std::string_view pattern, FuzzChoices& choices) {
  std::string out;
  std::size_t i = 0;
  if (i < pattern.size() && pattern[i] == '^') ++i;
  while (i < pattern.size() && pattern[i] != '$') {
    std::vector<std::string> options;
    if (pattern[i] == '[') {
      std::size_t close = pattern.find(']', i + 1);
      if (close == std::string_view::npos) return "";
      for (std::size_t c = i + 1; c < close; ++c) {
        char from = pattern[c];
        if (from == '\\' && c + 1 < close) from = pattern[++c];
        if (c + 2 < close && pattern[c + 1] == '-') {
          for (char to = pattern[c + 2], ch = from; ch <= to; ++ch) options.emplace_back(1, ch);
          c += 2;
        } else {
          options.emplace_back(1, from);
        }
      }
      i = close + 1;
    } else if (pattern[i] == '(') {
      std::size_t close = pattern.find(')', i + 1);
      if (close == std::string_view::npos) return "";
      std::string_view inside = pattern.substr(i + 1, close - i - 1);
      std::size_t start = 0;
      for (std::size_t bar; (bar = inside.find('|', start)) != std::string_view::npos;
           start = bar + 1) {
        options.emplace_back(inside.substr(start, bar - start));
      }
      options.emplace_back(inside.substr(start));
      i = close + 1;
    } else {
      char literal = pattern[i] == '\\' && i + 1 < pattern.size() ? pattern[++i] : pattern[i];
      options.emplace_back(1, literal);
      ++i;
    }
    std::size_t low = 1;
    std::size_t high = 1;
    if (i < pattern.size() && pattern[i] == '{') {
      std::size_t close = pattern.find('}', i);
      if (close == std::string_view::npos) return "";
      std::string counts(pattern.substr(i + 1, close - i - 1));
      std::size_t comma = counts.find(',');
      low = std::stoul(counts.substr(0, comma));
      high = comma == std::string::npos ? low : std::stoul(counts.substr(comma + 1));
      i = close + 1;
    } else if (i < pattern.size() &&
               (pattern[i] == '*' || pattern[i] == '+' || pattern[i] == '?')) {
      low = pattern[i] == '+' ? 1 : 0;
      high = pattern[i] == '?' ? 1 : 8;
      ++i;
    }
    // The bounds are the interesting lengths.
    std::size_t count =
        choices.one_in(3) ? (choices.one_in(2) ? low : high) : low + choices.below(high - low + 1);
    for (std::size_t n = 0; n < count && !options.empty(); ++n)
      out += options[choices.below(options.size())];
  }
  return out;
}

std::string type_of(const json& schema, FuzzChoices& choices) {
  auto type = schema.find("type");
  if (type == schema.end()) return schema.contains("properties") ? "object" : "";
  if (type->is_string()) return type->get<std::string>();
  if (type->is_array() && !type->empty()) {
    const json& picked = (*type)[choices.below(type->size())];
    if (picked.is_string()) return picked.get<std::string>();
  }
  return "";
}

// `base` with the keywords of `branch` (a oneOf/anyOf/allOf member) laid
// over it: its properties override, its required fields add, and the fields
// its "not": {"required": [...]} forbids are dropped from required.
json merged(json base, const json& branch) {
  if (!branch.is_object()) return base;
  for (const auto& [key, value] : branch.items()) {
    if (key == "properties" && value.is_object()) {
      for (const auto& [name, property] : value.items()) base["properties"][name] = property;
    } else if (key == "required" && value.is_array()) {
      for (const auto& name : value) base["required"].push_back(name);
    } else if (key == "not" && value.is_object() && value.contains("required")) {
      json kept = json::array();
      for (const auto& name : base.value("required", json::array())) {
        if (std::find(value.at("required").begin(), value.at("required").end(), name) ==
            value.at("required").end()) {
          kept.push_back(name);
        }
      }
      base["required"] = std::move(kept);
      base["x-forbidden"] = value.at("required");
    } else if (key != "oneOf" && key != "anyOf" && key != "allOf") {
      base[key] = value;
    }
  }
  return base;
}

// The prefix of the ids field `field` of `tool` names ("" when unknown).
std::string_view id_prefix(std::string_view field, std::string_view tool) {
  if (field.ends_with("_ids")) field.remove_suffix(1);
  if (field == "id") field = tool.substr(0, tool.find('_'));
  if (field.ends_with("_id")) field.remove_suffix(3);
  static constexpr std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"workflow", "wf-"},  {"from_workflow", "wf-"}, {"mission", "ms-"},
      {"task", "tk-"},      {"current_task", "tk-"},  {"parent_task", "tk-"},
      {"attempt", "at-"},   {"workspace", "ws-"},     {"template", "tp-"},
      {"agent", "ae-"},     {"recipient", "ae-"},     {"sender", "ae-"},
      {"message", "ms-"},   {"reply_to", "ms-"},      {"thread", "ms-"},
      {"repository", "rp-"}};
  for (const auto& [name, prefix] : kPrefixes) {
    if (field == name) return prefix;
  }
  return "";
}

// The characters of UTF-8 `text`, as the validator counts its lengths.
std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

}  // namespace

void SchemaValues::fit_length(std::string& text, std::size_t min_length, std::size_t max_length) {
  std::size_t seen = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if ((static_cast<unsigned char>(text[at]) & 0xc0) == 0x80) continue;
    if (seen++ == max_length) {
      text.resize(at);
      break;
    }
  }
  const std::size_t length = characters(text);
  if (length < min_length) text.append(min_length - length, 'a');
}

void SchemaValues::cut_bytes(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  text.resize(cut);
}

json SchemaValues::value(const json& schema, std::string_view key, int depth) {
  if (!schema.is_object() || depth > kMaxSchemaDepth) return nullptr;
  // Branches first: the value is made for one of them, picked by the input.
  for (const char* keyword : {"allOf", "oneOf", "anyOf"}) {
    auto branches = schema.find(keyword);
    if (branches == schema.end() || !branches->is_array() || branches->empty()) continue;
    json rest = schema;
    rest.erase(keyword);
    if (std::string(keyword) == "allOf") {
      for (const auto& branch : *branches) rest = merged(std::move(rest), branch);
    } else {
      rest = merged(std::move(rest), (*branches)[choices_.below(branches->size())]);
    }
    return value(rest, key, depth);
  }
  const std::string type = type_of(schema, choices_);
  // Now and then a value of another type: the validator must refuse it.
  if (depth > 0 && !within_ && choices_.one_in(40)) return wrong_type(type);
  if (schema.contains("const")) {
    return !within_ && choices_.one_in(16) ? json(hostile_text(8)) : schema.at("const");
  }
  if (auto values = schema.find("enum");
      values != schema.end() && values->is_array() && !values->empty()) {
    if (!within_ && choices_.one_in(16)) {
      return choices_.one_in(2) ? json(hostile_text(32)) : json(choices_.below(4));
    }
    return (*values)[choices_.below(values->size())];
  }
  if (type == "object") return object_value(schema, depth);
  if (type == "array") return array_value(schema, key, depth);
  if (type == "string") return string_value(schema, key);
  if (type == "integer") return integer_value(schema, key);
  if (type == "number") return number_value(schema);
  if (type == "boolean") return choices_.one_in(2);
  if (type == "null") return nullptr;
  return free_form(depth);
}

json SchemaValues::object_value(const json& schema, int depth) {
  json out = json::object();
  const json no_properties = json::object();
  const json& properties = schema.contains("properties") ? schema.at("properties") : no_properties;
  const json required = schema.value("required", json::array());
  const json forbidden = schema.value("x-forbidden", json::array());
  if (!schema.contains("properties") &&
      schema.value("additionalProperties", json(true)) != json(false)) {
    return free_form(depth);
  }
  for (const auto& [name, property] : properties.items()) {
    const bool needed = std::find(required.begin(), required.end(), name) != required.end();
    const bool banned = std::find(forbidden.begin(), forbidden.end(), name) != forbidden.end();
    // A required field is left out now and then, a banned one given now
    // and then, an optional one given half the time.
    const bool give = needed   ? within_ || !choices_.one_in(24)
                      : banned ? !within_ && choices_.one_in(24)
                               : choices_.one_in(2);
    if (give) out[name] = value(property, name, depth + 1);
  }
  if (!within_ && choices_.one_in(48)) out[hostile_text(16)] = value(json::object(), "", depth + 1);
  return out;
}

json SchemaValues::array_value(const json& schema, std::string_view key, int depth) {
  const std::size_t min_items = bound(schema, "minItems", 0);
  const std::size_t max_items =
      std::min(bound(schema, "maxItems", kUnboundedItems), kUnboundedItems);
  std::size_t count = 0;
  switch (choices_.below(within_ ? 5 : 8)) {
    case 0:
      count = min_items;
      break;
    case 1:
      count = max_items;
      break;
    case 5:
      count = max_items + 1;
      break;
    case 6:
      count = min_items > 0 ? min_items - 1 : 0;
      break;
    default:
      count = std::clamp<std::size_t>(choices_.below(4), min_items, max_items);
      break;
  }
  const json no_items = json::object();
  const json& items = schema.contains("items") ? schema.at("items") : no_items;
  const std::string item_key = std::string(field_of(key)) + "[]";
  json out = json::array();
  // A long array repeats a few made items: its length is the hostile part,
  // and the copies count against the call's bytes too.
  constexpr std::size_t kMadeItems = 8;
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < count; ++i) {
    if (i < kMadeItems) {
      out.push_back(value(items, item_key, depth + 1));
      continue;
    }
    if (sizes.empty()) {
      for (const auto& item : out) sizes.push_back(item.dump().size() + 1);
    }
    if (sizes[i % kMadeItems] > bytes_left_) break;
    bytes_left_ -= sizes[i % kMadeItems];
    out.push_back(out[i % kMadeItems]);
  }
  return out;
}

json SchemaValues::string_value(const json& schema, std::string_view key) {
  const std::size_t max_length = bound(schema, "maxLength", kUnboundedText);
  const std::size_t min_length = bound(schema, "minLength", 0);
  auto pattern = schema.find("pattern");
  if (pattern != schema.end() && pattern->is_string() && (within_ || !choices_.one_in(6))) {
    return text_matching(pattern->get<std::string>(), choices_);
  }
  std::string text;
  if (names_a_place(key) && !pools_.paths.empty() && !choices_.one_in(8)) {
    text = pools_.paths[choices_.below(pools_.paths.size())];
  } else if (names_a_record(key) && !choices_.one_in(6)) {
    text = record_id(key);
  } else if (names_a_position(key) && !choices_.one_in(6)) {
    text = cursor_text();
  } else {
    switch (choices_.below(within_ ? 8 : 10)) {
      case 0:
        text = std::string(max_length, 'a');
        break;
      case 1: {  // the limit in two-byte characters: bytes or characters?
        for (std::size_t i = 0; i < max_length; ++i) text += "\xc3\xa9";
        break;
      }
      case 2:
      case 3:
        text = hostile_text(std::min<std::size_t>(max_length, 64));
        break;
      case 4:
        text = pools_.names.empty() ? "a" : pools_.names[choices_.below(pools_.names.size())];
        break;
      case 5:
        text = record_id("");
        break;
      case 8:
        text = std::string(max_length + 1, 'a');
        break;
      case 9:
        text = std::string(min_length > 0 ? min_length - 1 : 0, 'a');
        break;
      default:
        text = std::string(kWords[choices_.below(kWords.size())]);
        break;
    }
  }
  if (within_) fit_length(text, min_length, max_length);
  cut_bytes(text, bytes_left_);
  bytes_left_ -= text.size();
  return text;
}

json SchemaValues::integer_value(const json& schema, std::string_view key) {
  constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kHighest = std::numeric_limits<std::int64_t>::max();
  const std::int64_t minimum = schema.value("minimum", kLowest);
  const std::int64_t maximum = schema.value("maximum", kHighest);
  if (field_of(key) == "timeout_ms") {
    return 1 + static_cast<std::int64_t>(choices_.below(20));  // no long waits
  }
  if (within_) {
    switch (choices_.below(6)) {
      case 0:
        return minimum;
      case 1:
        return maximum;
      case 2:  // past INT64 max, where nothing bounds it
        if (!schema.contains("maximum")) return std::numeric_limits<std::uint64_t>::max();
        return maximum;
      case 3: {  // anywhere in the range
        const std::uint64_t span =
            static_cast<std::uint64_t>(maximum) - static_cast<std::uint64_t>(minimum);
        const std::uint64_t offset =
            span == UINT64_MAX ? choices_.u64() : choices_.u64() % (span + 1);
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(minimum) + offset);
      }
      default: {  // near the low end, where real calls are
        const std::int64_t low = std::max<std::int64_t>(minimum, -2);
        return std::min<std::int64_t>(maximum, low + static_cast<std::int64_t>(choices_.below(12)));
      }
    }
  }
  switch (choices_.below(12)) {
    case 0:
      return minimum == kLowest ? minimum : minimum - 1;
    case 1:
      return maximum == kHighest ? maximum : maximum + 1;
    case 2:
      return kHighest;
    case 3:
      return kLowest;
    case 4:
      return std::numeric_limits<std::uint64_t>::max();
    case 5:
      return std::int64_t{1} << 53;
    case 6:
      return -1;
    case 7:
      return 0;
    case 8:
      return 1e20;  // a float: not an integer, and too large for one
    case 9:
      return 3.0;
    default:
      return static_cast<std::int64_t>(choices_.u64());
  }
}

json SchemaValues::number_value(const json& schema) {
  const double minimum = schema.value("minimum", -1e308);
  const double maximum = schema.value("maximum", 1e308);
  static constexpr std::array<double, 9> kNumbers = {0.0,   -0.0,   0.5,      1.0, -1.0,
                                                     1e308, -1e308, 4.9e-324, 1e-7};
  const double picked = choices_.one_in(3) ? (choices_.one_in(2) ? minimum : maximum)
                                           : kNumbers[choices_.below(kNumbers.size())];
  if (within_) return std::clamp(picked, minimum, maximum);
  return picked;
}

json SchemaValues::wrong_type(std::string_view type) {
  switch (choices_.below(6)) {
    case 0:
      return type == "string" ? json(1) : json("1");
    case 1:
      return nullptr;
    case 2:
      return type == "array" ? json::object() : json::array({"x"});
    case 3:
      return type == "object" ? json::array() : json::object({{"x", 1}});
    case 4:
      return type == "boolean" ? json("true") : json(true);
    default:
      return -1.5;
  }
}

json SchemaValues::free_form(int depth) {
  static constexpr std::array<int, 14> kDepths = {0,  1,  2,   3,   8,   60,  62,
                                                  63, 64, 120, 124, 125, 126, kMaxFreeFormDepth};
  int target = kDepths[choices_.below(kDepths.size())];
  if (within_) target = std::min(target, static_cast<int>(limits::kMaxToolArgumentDepth));
  const int levels = std::max(0, target - depth);
  json leaf = choices_.one_in(2) ? json(hostile_text(32)) : json(choices_.below(3));
  for (int i = 0; i < levels; ++i) {
    leaf = choices_.one_in(2) ? json::array({std::move(leaf)})
                              : json::object({{"k", std::move(leaf)}});
  }
  return leaf;
}

std::string SchemaValues::hostile_text(std::size_t max_length) {
  std::string text;
  const std::size_t pieces = 1 + choices_.below(4);
  for (std::size_t i = 0; i < pieces; ++i) {
    switch (choices_.below(5)) {
      case 0:  // input bytes, kept valid UTF-8: each byte as a code point
        for (unsigned char c : choices_.bytes(16)) {
          if (c < 0x80) {
            text += static_cast<char>(c);
          } else {
            text += static_cast<char>(0xc0 | (c >> 6));
            text += static_cast<char>(0x80 | (c & 0x3f));
          }
        }
        break;
      case 1:  // bytes no JSON string holds, rarely: the frame is refused whole
        if (!within_ && choices_.one_in(8)) {
          text += kRawMark;
          text += static_cast<char>('0' + choices_.below(kRawPieces.size()));
          text += kRawMark;
          break;
        }
        [[fallthrough]];
      default:
        text += kUnicodePieces[choices_.below(kUnicodePieces.size())];
        break;
    }
  }
  cut_bytes(text, max_length);
  return text;
}

std::string SchemaValues::record_id(std::string_view key) {
  if (!pools_.ids.empty() && !choices_.one_in(5)) {
    const std::string_view prefix = id_prefix(field_of(key), tool_);
    std::vector<const std::string*> kind;
    for (const auto& id : pools_.ids) {
      if (!prefix.empty() && id.starts_with(prefix)) kind.push_back(&id);
    }
    if (!kind.empty() && !choices_.one_in(4)) return *kind[choices_.below(kind.size())];
    return pools_.ids[choices_.below(pools_.ids.size())];
  }
  static constexpr std::array<std::string_view, 8> kPrefixes = {"wf-", "ms-", "tk-", "at-",
                                                                "ws-", "ae-", "tp-", "rp-"};
  switch (choices_.below(5)) {
    case 0:
      return std::string(kPrefixes[choices_.below(kPrefixes.size())]);
    case 1:
      return std::string(kPrefixes[choices_.below(kPrefixes.size())]) + "0000000000";
    case 2: {  // an id that exists with one character changed or added
      std::string id = pools_.ids.empty() ? "wf-x" : pools_.ids[choices_.below(pools_.ids.size())];
      if (choices_.one_in(2)) {
        id.back() = static_cast<char>(id.back() ^ 1);
      } else {
        id += choices_.one_in(2) ? "%" : "\xe2\x80\xae";
      }
      return id;
    }
    case 3:
      return std::string(64, 'x');
    default:
      return hostile_text(64);
  }
}

std::string SchemaValues::cursor_text() {
  static constexpr std::array<std::string_view, 20> kCursors = {"0",
                                                                "1",
                                                                "2",
                                                                "3",
                                                                "12",
                                                                "1000000",
                                                                "999999999999999999",
                                                                "9223372036854775807",
                                                                "9223372036854775808",
                                                                "18446744073709551616",
                                                                "-1",
                                                                "",
                                                                " 1",
                                                                "1 ",
                                                                "+1",
                                                                "01",
                                                                "1e3",
                                                                "0x10",
                                                                "1.5",
                                                                "\xd9\xa1"};
  return std::string(kCursors[choices_.below(kCursors.size())]);
}

std::string SchemaValues::dump_with_raw(const json& message) {
  std::string text = message.dump(-1, ' ', false, json::error_handler_t::replace);
  static const std::string kMark = "\\u0001";
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(kMark, start)) != std::string::npos;) {
    out.append(text, start, at - start);
    const std::size_t index_at = at + kMark.size();
    const bool placeholder = index_at + 1 + kMark.size() <= text.size() && text[index_at] >= '0' &&
                             static_cast<std::size_t>(text[index_at] - '0') < kRawPieces.size() &&
                             text.compare(index_at + 1, kMark.size(), kMark) == 0;
    if (placeholder) {
      out += kRawPieces[static_cast<std::size_t>(text[index_at] - '0')];
      start = index_at + 1 + kMark.size();
    } else {
      out += kMark;
      start = index_at;
    }
  }
  out.append(text, start, std::string::npos);
  return out;
}

}  // namespace mission::fuzz
