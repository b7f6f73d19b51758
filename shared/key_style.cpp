#include "shared/key_style.hpp"

namespace mission {

std::string key(KeyStyle style, std::string_view snake_key) {
  if (style == KeyStyle::snake) return std::string(snake_key);
  std::string out;
  out.reserve(snake_key.size());
  bool upper = false;
  for (char c : snake_key) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out.push_back(upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    upper = false;
  }
  return out;
}

}  // namespace mission
