#include "daemon/mcp/protocol_versions.hpp"

#include <algorithm>

namespace mission::daemon::mcp {
namespace {

constexpr std::string_view kLegacy[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
constexpr std::string_view kModern[] = {"2026-07-28"};
constexpr std::string_view kAllNewestFirst[] = {"2026-07-28", "2025-11-25", "2025-06-18",
                                                "2025-03-26", "2024-11-05"};

}  // namespace

std::span<const std::string_view> legacy_versions() {
  return kLegacy;
}
std::span<const std::string_view> modern_versions() {
  return kModern;
}
std::span<const std::string_view> all_versions_newest_first() {
  return kAllNewestFirst;
}

std::string_view negotiate_legacy(std::string_view requested) {
  for (std::string_view version : kLegacy) {
    if (version == requested) return version;
  }
  return kLegacy[std::size(kLegacy) - 1];
}

bool is_supported_modern(std::string_view version) {
  return std::find(std::begin(kModern), std::end(kModern), version) != std::end(kModern);
}

}  // namespace mission::daemon::mcp
