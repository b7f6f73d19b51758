#pragma once
// Terminal output: JSON documents for --json, and human text that fits the
// terminal's width and uses colour only on a terminal without NO_COLOR. Text
// that came from an agent goes through fit, padded, safe or wrapped, which
// neutralise control characters and escape sequences.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mission::cli {

// Width human output is laid out for when nothing says otherwise.
inline constexpr std::size_t kDefaultColumns = 80;
// Narrowest layout: tables below this would lose their last column.
inline constexpr std::size_t kMinimumColumns = 60;

// Width human output is laid out for: the terminal's (TIOCGWINSZ on stdout,
// then stderr), else $COLUMNS, else 80; never below kMinimumColumns.
std::size_t output_columns();

// `text` neutralised (shared/display_text.hpp): safe to print as one line.
std::string safe(std::string_view text);

// `text` neutralised and wrapped to `width` columns; the lines after the
// first are indented by `indent` spaces (included in `width`).
std::vector<std::string> wrapped(std::string_view text, std::size_t width, std::size_t indent);

// `document` with every string in it (keys too) neutralised, newlines
// kept: what a human view prints from, so that no field an agent supplied
// reaches the terminal as anything but text, whichever way it is printed.
nlohmann::json for_display(const nlohmann::json& document);

// `value` as JSON text (compact, or indented by `indent`): data, with every
// control character escaped, the C1 controls (U+0080 to U+009F, which a
// terminal obeys) too, and invalid UTF-8 as U+FFFD.
std::string json_text(const nlohmann::json& value, int indent = -1);

// One JSON document on stdout (json_text, indented).
void print_json(const nlohmann::json& document);

// Whether stdout gets ANSI colour: a terminal, and NO_COLOR unset or empty.
bool color_enabled();

enum class Tone { plain, bold, dim, good, bad, attention };

// `text` wrapped in the escape codes for `tone` when colour is enabled.
std::string styled(std::string_view text, Tone tone);

// `text` neutralised and shortened to `width` display columns by eliding its
// middle with "...", which keeps both the start and the file name of a long
// path readable.
std::string fit(std::string_view text, std::size_t width);

// `text` fitted to `width` columns and padded with spaces to exactly that
// many display columns.
std::string padded(const std::string& text, std::size_t width);

// The items of a JSON array joined by `separator` (strings as they are,
// anything else as JSON).
std::string joined(const nlohmann::json& array, const char* separator);

// Times are shown in local time unless --utc asked for UTC.
void set_utc_times(bool utc);
bool utc_times();

// "2026-11-23T10:04:05.123Z" -> "2026-11-23 11:04:05" in local time (or
// UTC with --utc); "-" for a missing time.
std::string short_time(const nlohmann::json& value);

// "2026-11-23T10:04:05.123Z" -> "11-23 11:04", for tables.
std::string table_time(const nlohmann::json& value);

// "10:04:05" of an event, in local time unless --utc.
std::string clock_time(const nlohmann::json& value);

// "UTC" or "" for table headers: what zone table_time shows.
const char* time_zone_label();

struct Field {
  std::string key;
  std::string value;
  bool wrap = false;  // wrapped over several lines (prose), else fitted to one
  // Fitted by cutting its end, not its middle: a command line, whose start
  // says what runs and whose end may be a long prompt.
  bool keep_start = false;
};

// Prints "  key  value" lines with aligned values, each fitted to the
// output width or wrapped.
void print_fields(const std::vector<Field>& fields);

// "3m 12s", "2h 5m", "450ms": a short human duration.
std::string human_duration(std::int64_t milliseconds);

// "512 B", "3.2 KiB", "1.5 GiB": a short human size.
std::string human_bytes(std::uint64_t bytes);

}  // namespace mission::cli
