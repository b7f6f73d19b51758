#include "cli/output.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "shared/display_text.hpp"
#include "shared/time_format.hpp"

namespace mission::cli {

nlohmann::json for_display(const nlohmann::json& document) {
  if (document.is_string())
    return text::neutralised(document.get_ref<const std::string&>(), text::Newlines::keep);
  if (document.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : document) out.push_back(for_display(item));
    return out;
  }
  if (document.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : document.items())
      out[text::neutralised(key)] = for_display(value);
    return out;
  }
  return document;
}

std::string json_text(const nlohmann::json& value, int indent) {
  const std::string dumped =
      value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  // The dump escapes the C0 controls; DEL and U+0080 to U+009F (the bytes
  // C2 80 to C2 9F) come out as they are, and only ever inside strings.
  std::string text;
  text.reserve(dumped.size());
  for (std::size_t at = 0; at < dumped.size(); ++at) {
    const auto byte = static_cast<unsigned char>(dumped[at]);
    const auto next = at + 1 < dumped.size() ? static_cast<unsigned char>(dumped[at + 1]) : 0;
    if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", next);
      text += escaped;
      ++at;
    } else if (byte == 0x7f) {
      text += "\\u007f";
    } else {
      text.push_back(static_cast<char>(byte));
    }
  }
  return text;
}

void print_json(const nlohmann::json& document) {
  std::string text = json_text(document, 2);
  text.push_back('\n');
  std::fwrite(text.data(), 1, text.size(), stdout);
}

bool color_enabled() {
  static const bool enabled = [] {
    const char* no_color = std::getenv("NO_COLOR");
    if (no_color != nullptr && *no_color != '\0') return false;
    return ::isatty(STDOUT_FILENO) == 1;
  }();
  return enabled;
}

std::size_t output_columns() {
  static const std::size_t columns = [] {
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
      struct winsize size {};
      if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return std::size_t{size.ws_col};
    }
    if (const char* text = std::getenv("COLUMNS"); text != nullptr) {
      char* end = nullptr;
      long value = std::strtol(text, &end, 10);
      if (end != text && *end == '\0' && value > 0 && value < 10000)
        return static_cast<std::size_t>(value);
    }
    return kDefaultColumns;
  }();
  return std::max(columns, kMinimumColumns);
}

std::string safe(std::string_view text) {
  return text::neutralised(text);
}

std::vector<std::string> wrapped(std::string_view text, std::size_t width, std::size_t indent) {
  const std::size_t room = width > indent + 10 ? width - indent : 10;
  std::vector<std::string> lines = text::wrap(text::neutralised(text, text::Newlines::keep), room);
  for (std::size_t i = 1; i < lines.size(); ++i) lines[i].insert(0, indent, ' ');
  return lines;
}

std::string styled(std::string_view text, Tone tone) {
  if (tone == Tone::plain || !color_enabled()) return std::string(text);
  const char* code = "";
  switch (tone) {
    case Tone::bold:
      code = "\x1b[1m";
      break;
    case Tone::dim:
      code = "\x1b[2m";
      break;
    case Tone::good:
      code = "\x1b[32m";
      break;
    case Tone::bad:
      code = "\x1b[31m";
      break;
    case Tone::attention:
      code = "\x1b[1;33m";
      break;
    case Tone::plain:
      break;
  }
  return code + std::string(text) + "\x1b[0m";
}

std::string fit(std::string_view text, std::size_t width) {
  return text::elide_middle(text::neutralised(text), width);
}

void print_fields(const std::vector<Field>& fields) {
  std::size_t key_width = 0;
  for (const auto& field : fields) key_width = std::max(key_width, field.key.size());
  const std::size_t indent = 2;
  const std::size_t gap = 2;
  for (const auto& [key, value, wrap, keep_start] : fields) {
    std::size_t room = output_columns() - indent - key_width - gap;
    std::string line(indent, ' ');
    line += styled(key, Tone::dim);
    line.append(key_width - key.size() + gap, ' ');
    if (wrap) {
      const std::size_t value_indent = indent + key_width + gap;
      for (const auto& part : wrapped(value, output_columns(), value_indent)) {
        std::printf("%s%s\n", line.c_str(), part.c_str());
        line.clear();
      }
      continue;
    }
    line += keep_start ? text::elide_end(text::neutralised(value), room) : fit(value, room);
    std::printf("%s\n", line.c_str());
  }
}

std::string padded(const std::string& text, std::size_t width) {
  std::string out = fit(text, width);
  out.append(width - std::min(width, text::display_width(out)), ' ');
  return out;
}

std::string joined(const nlohmann::json& array, const char* separator) {
  std::string out;
  if (!array.is_array()) return out;
  for (const auto& item : array) {
    if (!out.empty()) out += separator;
    out += item.is_string() ? item.get<std::string>() : item.dump();
  }
  return out;
}

namespace {

bool g_utc_times = false;

// "YYYY-MM-DD HH:MM:SS" of a wire timestamp, in the zone shown; the input
// itself when it is not one.
std::string display_time(const std::string& text) {
  std::optional<std::int64_t> ms = parse_iso8601(text);
  if (!ms) return text;
  std::time_t seconds = static_cast<std::time_t>(*ms / 1000);
  struct tm parts {};
  if (g_utc_times ? gmtime_r(&seconds, &parts) == nullptr
                  : localtime_r(&seconds, &parts) == nullptr) {
    return text;
  }
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%d %H:%M:%S", &parts);
  return out;
}

}  // namespace

void set_utc_times(bool utc) {
  g_utc_times = utc;
}
bool utc_times() {
  return g_utc_times;
}
const char* time_zone_label() {
  return g_utc_times ? "UTC" : "";
}

std::string short_time(const nlohmann::json& value) {
  if (!value.is_string()) return "-";
  return display_time(value.get<std::string>());
}

std::string clock_time(const nlohmann::json& value) {
  std::string text = short_time(value);
  return text.size() >= 19 ? text.substr(11, 8) : text;
}

std::string table_time(const nlohmann::json& value) {
  std::string text = short_time(value);
  return text.size() >= 16 ? text.substr(5, 11) : text;
}

std::string human_duration(std::int64_t milliseconds) {
  if (milliseconds < 1000) return std::to_string(milliseconds) + "ms";
  std::int64_t seconds = milliseconds / 1000;
  if (seconds < 60) return std::to_string(seconds) + "s";
  std::int64_t minutes = seconds / 60;
  if (minutes < 60) return std::to_string(minutes) + "m " + std::to_string(seconds % 60) + "s";
  std::int64_t hours = minutes / 60;
  if (hours < 48) return std::to_string(hours) + "h " + std::to_string(minutes % 60) + "m";
  return std::to_string(hours / 24) + "d " + std::to_string(hours % 24) + "h";
}

std::string human_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  for (value /= 1024; value >= 1024 && unit + 1 < std::size(kUnits); value /= 1024) ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

}  // namespace mission::cli
