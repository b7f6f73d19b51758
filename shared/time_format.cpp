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
  if (!day || *month < 1 || *month > 12 || *day < 1) return std::nullopt;
  // No 30 February: a day past its month's end is refused, not rolled over.
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
  if (*day > kDays[*month - 1] + (*month == 2 && leap ? 1 : 0)) return std::nullopt;
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

std::optional<std::int64_t> parse_since(std::string_view text, std::int64_t now_ms) {
  if (text == "now") return now_ms;
  if (text == "today" || text == "yesterday") {
    std::time_t seconds = static_cast<std::time_t>(now_ms / 1000);
    std::tm parts{};
    if (localtime_r(&seconds, &parts) == nullptr) return std::nullopt;
    parts.tm_hour = parts.tm_min = parts.tm_sec = 0;
    if (text == "yesterday") parts.tm_mday -= 1;
    parts.tm_isdst = -1;
    return static_cast<std::int64_t>(std::mktime(&parts)) * 1000;
  }
  // "90s", "15m", "2h", "3d", "1w", optionally followed by " ago".
  std::string_view amount = text;
  if (amount.size() > 4 && amount.substr(amount.size() - 4) == " ago") amount.remove_suffix(4);
  if (amount.size() >= 2 && std::isdigit(static_cast<unsigned char>(amount.front()))) {
    std::int64_t count = 0;
    std::size_t at = 0;
    while (at < amount.size() && std::isdigit(static_cast<unsigned char>(amount[at]))) {
      count = count * 10 + (amount[at] - '0');
      if (count > 100000000) return std::nullopt;
      ++at;
    }
    std::string_view unit = amount.substr(at);
    std::int64_t unit_ms = 0;
    if (unit == "s") unit_ms = 1000;
    if (unit == "m" || unit == "min") unit_ms = 60 * 1000;
    if (unit == "h") unit_ms = 3600 * 1000;
    if (unit == "d") unit_ms = 24 * 3600 * 1000;
    if (unit == "w") unit_ms = 7 * 24 * 3600 * 1000LL;
    if (unit_ms != 0) return now_ms - count * unit_ms;
  }
  return parse_iso8601(text);
}

}  // namespace mission
