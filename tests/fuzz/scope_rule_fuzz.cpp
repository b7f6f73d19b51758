// The scope rule: any area text against any path, without a crash or a
// runaway match (the ** glob is the risk), and a prefix always covers
// itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "daemon/git/scope_rule.hpp"

namespace scope = mission::daemon::git::scope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t split = input.find('\n');
  if (split == std::string_view::npos) return 0;
  std::string_view area_text = input.substr(0, split);
  std::string_view path = input.substr(split + 1);
  scope::Area area = scope::parse_area(area_text);
  (void)scope::covers(area, path);
  (void)scope::glob_match(area_text, path);
  if (area.kind == scope::AreaKind::prefix && !area.pattern.empty() &&
      !scope::covers(area, area.pattern)) {
    __builtin_trap();
  }
  return 0;
}
