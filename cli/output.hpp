#pragma once
// Terminal output: JSON documents for --json, and human text that fits
// 80 columns and uses colour only on a terminal without NO_COLOR.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mission::cli {

// Width human output is laid out for.
inline constexpr std::size_t kOutputColumns = 80;

// One JSON document on stdout.
void print_json(const nlohmann::json& document);

// Whether stdout gets ANSI colour: a terminal, and NO_COLOR unset or empty.
bool color_enabled();

enum class Tone { plain, bold, dim, good, bad };

// `text` wrapped in the escape codes for `tone` when colour is enabled.
std::string styled(std::string_view text, Tone tone);

// `text` shortened to `width` columns by eliding its middle with "...",
// which keeps both the start and the file name of a long path readable.
std::string fit(std::string_view text, std::size_t width);

// `text` fitted to `width` columns and padded with spaces to exactly that.
std::string padded(const std::string& text, std::size_t width);

// The items of a JSON array joined by `separator` (strings as they are,
// anything else as JSON).
std::string joined(const nlohmann::json& array, const char* separator);

// "2026-11-23T10:04:05.123Z" -> "2026-11-23 10:04:05" (UTC, as stored); "-"
// for a missing time.
std::string short_time(const nlohmann::json& value);

// "2026-11-23T10:04:05.123Z" -> "11-23 10:04", for tables.
std::string table_time(const nlohmann::json& value);

// Prints "  key  value" lines with aligned values, each fitted to 80 columns.
void print_fields(const std::vector<std::pair<std::string, std::string>>& fields);

// "3m 12s", "2h 5m", "450ms": a short human duration.
std::string human_duration(std::int64_t milliseconds);

// "512 B", "3.2 KiB", "1.5 GiB": a short human size.
std::string human_bytes(std::uint64_t bytes);

}  // namespace mission::cli
