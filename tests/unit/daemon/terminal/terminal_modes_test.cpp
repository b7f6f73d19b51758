#include "daemon/terminal/terminal_modes.hpp"

#include <catch2/catch.hpp>

using mission::daemon::terminal::TerminalModes;

namespace {

bool restores(const TerminalModes& modes, std::string_view sequence) {
  return modes.restore().find(sequence) != std::string::npos;
}

}  // namespace

TEST_CASE("terminal modes: what a program turns on is turned on again for a new viewer") {
  TerminalModes modes;
  CHECK(restores(modes, "\x1b[?2004l"));
  CHECK(restores(modes, "\x1b[?1l"));
  CHECK(restores(modes, "\x1b>"));
  // Claude Code's start: focus events, bracketed paste; text around them.
  modes.feed("\x1b[?1004hhello\x1b[?2004h\x1b[1mworld\x1b[0m");
  CHECK(restores(modes, "\x1b[?1004h"));
  CHECK(restores(modes, "\x1b[?2004h"));
  CHECK(restores(modes, "\x1b[?1l"));
  // Several modes in one sequence, the keypad, then one turned off again.
  modes.feed("\x1b[?1;1002;1006h\x1b=");
  CHECK(restores(modes, "\x1b[?1h"));
  CHECK(restores(modes, "\x1b[?1002h"));
  CHECK(restores(modes, "\x1b[?1006h"));
  CHECK(restores(modes, "\x1b="));
  modes.feed("\x1b[?2004l\x1b>");
  CHECK(restores(modes, "\x1b[?2004l"));
  CHECK(restores(modes, "\x1b>"));
  // A full reset turns everything off.
  modes.feed(
      "\x1b"
      "c");
  CHECK(restores(modes, "\x1b[?1l"));
  CHECK(restores(modes, "\x1b[?1002l"));
}

TEST_CASE("terminal modes: a sequence split between reads is still read") {
  TerminalModes modes;
  const std::string stream = "abc\x1b[?2004h def \x1b[?1h";
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    TerminalModes split;
    split.feed(std::string_view(stream).substr(0, cut));
    split.feed(std::string_view(stream).substr(cut));
    CHECK(split.restore() == [&] {
      TerminalModes whole;
      whole.feed(stream);
      return whole.restore();
    }());
    CHECK(restores(split, "\x1b[?2004h"));
    CHECK(restores(split, "\x1b[?1h"));
  }
}

TEST_CASE("terminal modes: other sequences, untracked modes and junk change nothing") {
  TerminalModes modes;
  const std::string before = modes.restore();
  modes.feed("\x1b[2004h");                             // not private: ANSI mode 2004
  modes.feed("\x1b[?1049h\x1b[?25l");                   // the screen model's business
  modes.feed("\x1b]0;title\x07\x1b(B\x1b[31m");         // OSC, charset, colour
  modes.feed("\x1b[?99999999999h");                     // no such mode
  modes.feed("\x1b[?" + std::string(1000, '1') + "h");  // overlong, skipped whole
  modes.feed("\x1b[?20\x1b[?2004h");                    // cut short by a new sequence
  CHECK(restores(modes, "\x1b[?2004h"));
  modes.feed("\x1b[?2004l");
  CHECK(modes.restore() == before);
}
