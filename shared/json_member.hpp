#pragma once
// Reading a field of JSON an agent wrote, whatever its shape: a missing
// field, or a value that is not an object, reads as null rather than
// throwing, so a decoder checks one type at the end of a path.

#include <nlohmann/json.hpp>
#include <string_view>

namespace mission {

// `object[key]`, or null when `object` is no object or has no such key.
inline const nlohmann::json& json_member(const nlohmann::json& object, std::string_view key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  auto found = object.find(key);
  return found == object.end() ? kNull : *found;
}

}  // namespace mission
