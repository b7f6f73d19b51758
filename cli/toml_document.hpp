#pragma once
// A TOML document read into JSON, with the line each value starts on, so
// that what checks the JSON can name the line of a mistake in the file a
// person wrote. toml++ (Debian's libtomlplusplus) parses; dates and times,
// which JSON has no word for, are refused with their line.

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mission::cli {

struct LinedDocument {
  nlohmann::json root;
  // The 1-based line where the value at each JSON pointer starts ("" is the
  // root). Empty for a document that does not know its lines (JSON).
  std::map<std::string, std::size_t> lines;
  // The line of the value at `pointer`, else of its nearest parent that has
  // one; 0 when none does.
  std::size_t line_of(std::string pointer) const;
};

// `text` parsed as TOML. Throws MissionError invalid_argument naming
// `file_name` and the line and column of a syntax error, or the line of a
// date or time.
LinedDocument read_toml(std::string_view text, const std::string& file_name);

// A JSON pointer's reference token for `key` ('~' and '/' escaped).
std::string pointer_token(std::string_view key);

}  // namespace mission::cli
