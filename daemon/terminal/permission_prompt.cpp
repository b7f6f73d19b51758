#include "daemon/terminal/permission_prompt.hpp"

#include <algorithm>
#include <cstddef>

#include "shared/bounded_json.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon::terminal {
namespace {

// How one adapter draws its permission menu.
struct PromptPattern {
  std::string_view adapter;
  std::string_view cursor;  // before the option the menu's cursor is on
  std::string_view footer;  // the start of the line under the options
};

// Read from the real CLIs' screens (tests/unit/daemon/terminal/fixtures).
constexpr PromptPattern kPromptPatterns[] = {
    // Claude Code 2.1: " Do you want to proceed?", " ❯ 1. Yes", "   2. Yes,
    // and always allow access to", an option's long text wrapped onto
    // lines indented under it, "   4. No", a blank line, then " Esc to
    // cancel · Tab to amend" on the last row. Its digit picks an option.
    {"claude-code", "\u276f", "Esc to cancel"},
};

const PromptPattern* pattern_of(std::string_view adapter) {
  for (const PromptPattern& pattern : kPromptPatterns) {
    if (pattern.adapter == adapter) return &pattern;
  }
  return nullptr;
}

std::string_view trimmed(std::string_view line) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) return {};
  const std::size_t end = line.find_last_not_of(' ');
  return line.substr(start, end - start + 1);
}

std::size_t indent_of(std::string_view line) {
  const std::size_t start = line.find_first_not_of(' ');
  return start == std::string_view::npos ? line.size() : start;
}

// "❯ 1. Yes" or "  2. No": the option's number, its text, whether the
// cursor is on it, and the column its number starts at.
struct OptionLine {
  std::size_t number = 0;
  std::string_view text;
  bool under_cursor = false;
  std::size_t column = 0;
};

std::optional<OptionLine> option_line(std::string_view line, const PromptPattern& pattern) {
  OptionLine option;
  std::size_t at = indent_of(line);
  option.column = at;
  if (line.substr(at).starts_with(pattern.cursor)) {
    option.under_cursor = true;
    at += pattern.cursor.size();
    const std::size_t spaces = indent_of(line.substr(at));
    // The cursor takes one column on the screen, whatever its bytes.
    option.column += 1 + spaces;
    at += spaces;
  }
  if (at + 3 > line.size() || line[at] < '1' || line[at] > '9' || line[at + 1] != '.' ||
      line[at + 2] != ' ') {
    return std::nullopt;
  }
  option.number = static_cast<std::size_t>(line[at] - '0');
  option.text = trimmed(line.substr(at + 3));
  return option;
}

}  // namespace

bool reads_permission_prompts(std::string_view adapter) {
  return pattern_of(adapter) != nullptr;
}

std::optional<PermissionPrompt> find_permission_prompt(std::string_view adapter,
                                                       std::string_view screen) {
  const PromptPattern* pattern = pattern_of(adapter);
  if (pattern == nullptr) return std::nullopt;
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= screen.size();) {
    std::size_t end = screen.find('\n', start);
    if (end == std::string_view::npos) end = screen.size();
    lines.push_back(screen.substr(start, end - start));
    start = end + 1;
  }
  // The footer ends the screen: the menu is the live end of the CLI's
  // drawing, where its input box is when no menu is up.
  std::size_t footer = lines.size();
  while (footer > 0 && trimmed(lines[footer - 1]).empty()) --footer;
  if (footer == 0 || !trimmed(lines[footer - 1]).starts_with(pattern->footer)) return std::nullopt;
  --footer;
  std::size_t last = footer;
  while (last > 0 && trimmed(lines[last - 1]).empty()) --last;
  // Upwards from the last option to option 1, taking in the lines an
  // option's text wrapped onto (indented past its number).
  std::vector<std::string> texts;
  std::size_t selected = 0;
  std::size_t cursors = 0;
  std::string continued;
  std::size_t row = last;
  std::size_t expected = 0;  // the number the option above must have; 0: any
  bool complete = false;     // option 1 reached
  while (row > 0 && !complete) {
    --row;
    const std::string_view line = lines[row];
    auto option = option_line(line, *pattern);
    if (!option) {
      if (trimmed(line).empty()) return std::nullopt;
      // Past the bound an option's text is cut anyway.
      if (continued.size() <= limits::kMaxPromptOptionBytes) {
        continued = std::string(trimmed(line)) + (continued.empty() ? "" : " " + continued);
      }
      continue;
    }
    if ((expected != 0 && option->number != expected) ||
        (!continued.empty() && indent_of(lines[row + 1]) <= option->column)) {
      return std::nullopt;
    }
    std::string text(option->text);
    if (!continued.empty()) text += " " + continued;
    continued.clear();
    texts.push_back(valid_utf8_excerpt(text, limits::kMaxPromptOptionBytes));
    if (option->under_cursor) {
      ++cursors;
      selected = option->number - 1;
    }
    complete = option->number == 1;
    expected = option->number - 1;
  }
  if (!complete || texts.size() < 2 || cursors != 1 || row == 0) {
    return std::nullopt;
  }
  const std::string_view question = trimmed(lines[row - 1]);
  if (!question.ends_with('?')) return std::nullopt;
  std::reverse(texts.begin(), texts.end());
  return PermissionPrompt{valid_utf8_excerpt(question, limits::kMaxPromptQuestionBytes),
                          std::move(texts), selected};
}

std::string keys_for_choice(std::string_view /*adapter*/, std::size_t choice) {
  // Every menu in the table picks an option by its digit, no Enter.
  return std::to_string(choice);
}

}  // namespace mission::daemon::terminal
