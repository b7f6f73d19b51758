#include "shared/time_format.hpp"

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

}  // namespace mission
