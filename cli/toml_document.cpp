#include "cli/toml_document.hpp"

// The CLI links statically and Debian ships toml++ only as a shared
// library: it is compiled here, in this one file, from its headers.
#define TOML_HEADER_ONLY 1
#undef TOML_SHARED_LIB
#include <toml++/toml.h>

#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

std::size_t line_of_node(const toml::node& node) {
  return static_cast<std::size_t>(node.source().begin.line);
}

void convert(const toml::node& node, const std::string& pointer, std::size_t line,
             nlohmann::json& out, LinedDocument& document, const std::string& file_name) {
  if (line == 0) line = line_of_node(node);
  // The root has no line of its own: what it lacks is not at line 1.
  if (!pointer.empty()) document.lines[pointer] = line;
  if (const toml::table* table = node.as_table()) {
    out = nlohmann::json::object();
    for (const auto& [key, value] : *table) {
      const std::string name(key.str());
      convert(value, pointer + "/" + pointer_token(name),
              static_cast<std::size_t>(key.source().begin.line), out[name], document, file_name);
    }
  } else if (const toml::array* array = node.as_array()) {
    out = nlohmann::json::array();
    std::size_t index = 0;
    for (const toml::node& item : *array) {
      out.push_back(nullptr);
      convert(item, pointer + "/" + std::to_string(index), 0, out.back(), document, file_name);
      ++index;
    }
  } else if (auto text = node.value_exact<std::string>()) {
    out = std::move(*text);
  } else if (auto integer = node.value_exact<std::int64_t>()) {
    out = *integer;
  } else if (auto number = node.value_exact<double>()) {
    out = *number;
  } else if (auto flag = node.value_exact<bool>()) {
    out = *flag;
  } else {
    throw MissionError(
        ErrorCode::invalid_argument,
        file_name + ":" + std::to_string(line) + ": a date or time, which a plan has no use for",
        "quote it to make it text", {{"line", line}});
  }
}

}  // namespace

std::size_t LinedDocument::line_of(std::string pointer) const {
  for (;;) {
    auto found = lines.find(pointer);
    if (found != lines.end()) return found->second;
    if (pointer.empty()) return 0;
    pointer.erase(pointer.rfind('/'));
  }
}

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

LinedDocument read_toml(std::string_view text, const std::string& file_name) {
  toml::table table;
  try {
    table = toml::parse(text, file_name);
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw MissionError(ErrorCode::invalid_argument,
                       file_name + ":" + std::to_string(begin.line) + ":" +
                           std::to_string(begin.column) + ": " + std::string(e.description()),
                       "fix the TOML there; mission(1), PLAN FILES, shows a plan",
                       {{"line", begin.line}});
  }
  LinedDocument document;
  convert(table, "", 1, document.root, document, file_name);
  return document;
}

}  // namespace mission::cli
