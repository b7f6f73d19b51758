#include "shared/bounded_json.hpp"

#include "shared/limits.hpp"

namespace mission {

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > stop_after) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

bool json_too_deep(std::string_view text) {
  return json_nesting_depth(text, limits::kMaxJsonDepth) > limits::kMaxJsonDepth;
}

MissionError json_too_deep_error(ErrorCode code) {
  return MissionError(code,
                      "JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth) +
                          " levels of arrays and objects",
                      "flatten the data: mission reads at most " +
                          std::to_string(limits::kMaxJsonDepth) + " levels",
                      {{"limit", limits::kMaxJsonDepth}});
}

nlohmann::json parse_json_or_discarded(std::string_view text) {
  if (json_too_deep(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, false);
}

nlohmann::json parse_stored_json(std::string_view text, std::string_view what) {
  if (json_too_deep(text)) throw json_too_deep_error(ErrorCode::internal);
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) {
    throw MissionError(ErrorCode::internal, "stored " + std::string(what) + " is not valid JSON",
                       "the database was changed outside mission; restore it from a backup");
  }
  return value;
}

namespace {

// Length of the valid UTF-8 sequence at the start of `s`, or 0.
std::size_t utf8_sequence(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return 1;
  std::size_t length;
  unsigned char low = 0x80, high = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;
    if (b0 == 0xED) high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;
    if (b0 == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (s.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < (i == 1 ? low : 0x80) || b > (i == 1 ? high : 0xBF)) return 0;
  }
  return length;
}

}  // namespace

std::string valid_utf8_excerpt(std::string_view bytes, std::size_t max_bytes) {
  constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  while (!bytes.empty()) {
    std::size_t length = utf8_sequence(bytes);
    std::string_view piece = length == 0 ? kReplacement : bytes.substr(0, length);
    if (out.size() + piece.size() > max_bytes) break;
    out.append(piece);
    bytes.remove_prefix(length == 0 ? 1 : length);
  }
  return out;
}

}  // namespace mission
