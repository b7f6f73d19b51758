#include "shared/time_format.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>

namespace mission {

std::string format_utc_iso8601(std::int64_t unix_ms) {
  std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  int millis = static_cast<int>(unix_ms % 1000);
  if (millis < 0) {
    millis += 1000;
    seconds -= 1;
  }
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[64];  // room for any int year the compiler can imagine
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900,
                parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, millis);
  return text;
}

namespace {

// Reads exactly `digits` decimal digits at `at`, advancing it.
std::optional<int> read_number(std::string_view text, std::size_t& at, std::size_t digits) {
  if (at + digits > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    char c = text[at + i];
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  at += digits;
  return value;
}

bool expect(std::string_view text, std::size_t& at, char c) {
  if (at >= text.size() || text[at] != c) return false;
  ++at;
  return true;
}

}  // namespace

std::optional<std::int64_t> parse_iso8601(std::string_view text) {
  std::size_t at = 0;
  auto year = read_number(text, at, 4);
  if (!year || !expect(text, at, '-')) return std::nullopt;
  auto month = read_number(text, at, 2);
  if (!month || !expect(text, at, '-')) return std::nullopt;
  auto day = read_number(text, at, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 || *day > 31) return std::nullopt;
  int hour = 0, minute = 0, second = 0, millis = 0, offset_minutes = 0;
  if (at < text.size()) {
    if (text[at] != 'T' && text[at] != 't' && text[at] != ' ') return std::nullopt;
    ++at;
    auto h = read_number(text, at, 2);
    if (!h || !expect(text, at, ':')) return std::nullopt;
    auto m = read_number(text, at, 2);
    if (!m) return std::nullopt;
    hour = *h;
    minute = *m;
    if (at < text.size() && text[at] == ':') {
      ++at;
      auto s = read_number(text, at, 2);
      if (!s) return std::nullopt;
      second = *s;
    }
    if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
      ++at;
      int scale = 100;
      std::size_t start = at;
      while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
        millis += (text[at] - '0') * scale;
        scale /= 10;
        ++at;
      }
      if (at == start) return std::nullopt;
    }
    if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
      ++at;
    } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
      int sign = text[at] == '-' ? -1 : 1;
      ++at;
      auto oh = read_number(text, at, 2);
      if (!oh) return std::nullopt;
      expect(text, at, ':');
      auto om = read_number(text, at, 2);
      if (!om) return std::nullopt;
      offset_minutes = sign * (*oh * 60 + *om);
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  std::tm parts{};
  parts.tm_year = *year - 1900;
  parts.tm_mon = *month - 1;
  parts.tm_mday = *day;
  parts.tm_hour = hour;
  parts.tm_min = minute;
  parts.tm_sec = second;
  std::int64_t seconds = static_cast<std::int64_t>(timegm(&parts)) - offset_minutes * 60;
  return seconds * 1000 + millis;
}

}  // namespace mission
