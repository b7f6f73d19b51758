#include "daemon/terminal/permission_prompt.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "daemon/terminal/screen.hpp"
#include "shared/terminal_limits.hpp"

using mission::daemon::terminal::find_permission_prompt;
using mission::daemon::terminal::keys_for_choice;
using mission::daemon::terminal::PermissionPrompt;
using mission::daemon::terminal::Screen;
namespace limits = mission::limits;

namespace {

// A screen as the daemon's model holds it, from bytes captured from the
// real CLI (`mission attach --read-only`'s repaint and what followed it).
std::string screen_of(const std::string& fixture, unsigned short rows, unsigned short columns) {
  std::ifstream in(std::string(MISSION_SOURCE_DIR) + "/tests/unit/daemon/terminal/fixtures/" +
                   fixture);
  REQUIRE(in);
  std::stringstream bytes;
  bytes << in.rdbuf();
  Screen screen(rows, columns);
  screen.feed(bytes.str());
  return screen.text();
}

// Claude Code's screen once the menu is answered, its input box at the
// bottom: what an agent prints goes above it.
std::string idle_bottom() {
  return "\n"
         "────────────────────────────────────────\n"
         "❯\n"
         "────────────────────────────────────────\n"
         "  ⏸ manual mode on · ? for shortcuts";
}

}  // namespace

TEST_CASE("Claude Code's permission menu is read from its real screen") {
  const std::string text = screen_of("claude-code-bash-permission.ansi", 24, 80);
  auto prompt = find_permission_prompt("claude-code", text);
  REQUIRE(prompt);
  CHECK(prompt->question == "Do you want to proceed?");
  REQUIRE(prompt->options.size() == 4);
  CHECK(prompt->options[0] == "Yes");
  // An option's text wrapped onto the next line is one option.
  CHECK(prompt->options[1].starts_with("Yes, and always allow access to /tmp/"));
  CHECK(prompt->options[1].ends_with("/work from this project"));
  CHECK(prompt->options[3] == "No");
  CHECK(prompt->selected == 0);
  // Only the adapter whose menu it is reads it.
  CHECK_FALSE(find_permission_prompt("codex", text));
  CHECK_FALSE(find_permission_prompt("generic", text));
  CHECK(keys_for_choice("claude-code", 2) == "2");
}

TEST_CASE("a menu the agent printed in its transcript is not a permission prompt") {
  // The same words, drawn as a menu, in a code block above the input box.
  const std::string printed =
      "● Here is what the menu looks like:\n"
      "  Do you want to proceed?\n"
      "  ❯ 1. Yes\n"
      "    2. No\n"
      "\n"
      "  Esc to cancel · Tab to amend\n" +
      idle_bottom();
  CHECK_FALSE(find_permission_prompt("claude-code", printed));
  // Even with nothing under it but blank lines, the footer must be the
  // menu's: a line the agent ends its text with does not make one.
  CHECK_FALSE(find_permission_prompt("claude-code", "Do you want to proceed?\n❯ 1. Yes\n  2. No"));
}

TEST_CASE("a permission menu is read only when drawn whole") {
  const std::string footer = "\n\n Esc to cancel · Tab to amend\n\n";
  auto read = [&](const std::string& menu) {
    return find_permission_prompt("claude-code", menu + footer);
  };
  // The cursor on another option.
  auto moved = read(" Do you want to proceed?\n   1. Yes\n ❯ 2. No");
  REQUIRE(moved);
  CHECK(moved->selected == 1);
  CHECK(moved->options == std::vector<std::string>{"Yes", "No"});
  // No cursor, two cursors, a gap in the numbers, no option 1, one option,
  // no question above them, a blank line inside the menu.
  CHECK_FALSE(read(" Do you want to proceed?\n   1. Yes\n   2. No"));
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 1. Yes\n ❯ 2. No"));
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 1. Yes\n   3. No"));
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 2. Yes\n   3. No"));
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 1. Yes"));
  CHECK_FALSE(read(" The plan:\n ❯ 1. Yes\n   2. No"));
  CHECK_FALSE(read(" ❯ 1. Yes\n   2. No"));
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 1. Yes\n\n   2. No"));
  // A line under an option that is not indented past its number is not
  // its text wrapped.
  CHECK_FALSE(read(" Do you want to proceed?\n ❯ 1. Yes\n not mine\n   2. No"));
}

TEST_CASE("what is kept of a permission menu is bounded, whatever the screen holds") {
  // The largest screen, every row of it a menu line as long as a row: one
  // pass, and a question and options cut to their bounds.
  const std::string row(limits::kMaxTerminalColumns - 4, 'x');
  std::string menu = " Do you want to " + row + "?\n ❯ 1. " + row + "\n";
  for (int i = 0; i < limits::kMaxTerminalRows - 6; ++i) menu += "      " + row + "\n";
  menu += "   2. No\n\n Esc to cancel\n";
  auto prompt = find_permission_prompt("claude-code", menu);
  REQUIRE(prompt);
  CHECK(prompt->question.size() <= limits::kMaxPromptQuestionBytes);
  REQUIRE(prompt->options.size() == 2);
  CHECK(prompt->options[0].size() <= limits::kMaxPromptOptionBytes);
  CHECK(prompt->options[1] == "No");
}
