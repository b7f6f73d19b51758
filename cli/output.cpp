#include "cli/output.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace mission::cli {

void print_json(const nlohmann::json& document) {
  std::string text = document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
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

std::string styled(std::string_view text, Tone tone) {
  if (tone == Tone::plain || !color_enabled()) return std::string(text);
  const char* code = "";
  switch (tone) {
    case Tone::bold: code = "\x1b[1m"; break;
    case Tone::dim: code = "\x1b[2m"; break;
    case Tone::good: code = "\x1b[32m"; break;
    case Tone::bad: code = "\x1b[31m"; break;
    case Tone::plain: break;
  }
  return code + std::string(text) + "\x1b[0m";
}

std::string fit(std::string_view text, std::size_t width) {
  if (text.size() <= width) return std::string(text);
  if (width <= 3) return std::string(text.substr(0, width));
  std::size_t keep = width - 3;
  std::size_t head = keep / 3;
  std::size_t tail = keep - head;
  return std::string(text.substr(0, head)) + "..." + std::string(text.substr(text.size() - tail));
}

void print_fields(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::size_t key_width = 0;
  for (const auto& field : fields) key_width = std::max(key_width, field.first.size());
  const std::size_t indent = 2;
  const std::size_t gap = 2;
  for (const auto& [key, value] : fields) {
    std::size_t room = kOutputColumns - indent - key_width - gap;
    std::string line(indent, ' ');
    line += styled(key, Tone::dim);
    line.append(key_width - key.size() + gap, ' ');
    line += fit(value, room);
    std::printf("%s\n", line.c_str());
  }
}

std::string padded(const std::string& text, std::size_t width) {
  std::string out = fit(text, width);
  out.append(width - out.size(), ' ');
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

std::string short_time(const nlohmann::json& value) {
  if (!value.is_string()) return "-";
  std::string text = value.get<std::string>();
  if (text.size() >= 19) text = text.substr(0, 10) + " " + text.substr(11, 8);
  return text;
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
