#include "shared/display_text.hpp"

#include <catch2/catch.hpp>

using namespace mission::text;

TEST_CASE("neutralised text keeps printable ASCII and UTF-8 as it is") {
  CHECK(neutralised("fix the parser") == "fix the parser");
  CHECK(neutralised("日本語 ok ✓ 🚀") == "日本語 ok ✓ 🚀");
}

TEST_CASE("neutralised text drops escape sequences of every kind") {
  // A progress summary that would retitle the terminal, colour it, move the
  // cursor and clear the screen.
  CHECK(neutralised("\x1b]0;pwned\x07"
                    "done") == "done");
  CHECK(neutralised("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\") == "link");
  CHECK(neutralised("\x1b[31mred\x1b[0m") == "red");
  CHECK(neutralised("a\x1b[2J\x1b[Hb") == "ab");
  CHECK(neutralised("\x1bPq#0;2;0;0;0\x1b\\after") == "after");
  CHECK(neutralised("x\x1b(By") == "xy");
  CHECK(neutralised("x\x1b"
                    "7y\x1b"
                    "8") == "xy");
  // An unterminated OSC swallows the rest rather than reach the terminal.
  CHECK(neutralised("ok\x1b]2;title without end") == "ok");
  CHECK(neutralised("trailing\x1b") == "trailing");
  // The 8-bit CSI and OSC (C1 as UTF-8) go the same way.
  CHECK(neutralised("a\xc2\x9b"
                    "31mb") == "ab");
  CHECK(neutralised("a\xc2\x9d"
                    "0;t\x07"
                    "b") == "ab");
}

TEST_CASE("neutralised text keeps the spaces a cursor move right stands for") {
  // Terminal UIs draw "Claude Code" as "Claude\x1b[1CCode" and jump to a
  // column for the next field ("Claude Code\x1b[24Gv2").
  CHECK(neutralised("Claude Code\x1b[24Gv2") == "Claude Code v2");
  CHECK(neutralised("Claude\x1b[1CCode") == "Claude Code");
  CHECK(neutralised("a\x1b[Cb") == "a b");
  CHECK(neutralised("a\x1b[3Cb") == "a   b");
  CHECK(neutralised("a\x1b[0Cb") == "a b");
  // Other moves and private sequences ending in C are dropped, not spaced.
  CHECK(neutralised("a\x1b[1;5Cb") == "ab");
  CHECK(neutralised("a\x1b[?1Cb") == "ab");
  CHECK(neutralised("a\x1b[3Db") == "ab");
  // A hostile count is bounded to a line's width.
  CHECK(neutralised("a\x1b[99999999999999999999Cb").size() == 2 + 512);
}

TEST_CASE("neutralised text shows lone controls instead of obeying them") {
  CHECK(neutralised("bell\x07") == "bell^G");
  CHECK(neutralised("back\x08space") == "back^Hspace");
  CHECK(neutralised("del\x7f") == "del^?");
  CHECK(neutralised("tab\there\rx") == "tab here x");
  CHECK(neutralised("two\nlines") == "two lines");
  CHECK(neutralised("two\nlines", Newlines::keep) == "two\nlines");
  CHECK(neutralised("a\xc2\x85"
                    "b") ==
        "a\xef\xbf\xbd"
        "b");  // NEL
  // An 8-bit CSI as a lone byte is not UTF-8: U+FFFD, and what follows is text.
  CHECK(neutralised("a\x9b"
                    "2Jb") ==
        "a\xef\xbf\xbd"
        "2Jb");
}

TEST_CASE("neutralised text replaces invalid UTF-8 and bidirectional overrides") {
  CHECK(neutralised("bad \xff byte") == "bad \xef\xbf\xbd byte");
  CHECK(neutralised("cut \xe6\x97") == "cut \xef\xbf\xbd\xef\xbf\xbd");
  // U+202E RIGHT-TO-LEFT OVERRIDE could make "exe.txt" read as "txt.exe".
  CHECK(neutralised("file\xe2\x80\xae"
                    "txt.exe") ==
        "file\xef\xbf\xbd"
        "txt.exe");
}

TEST_CASE("display width counts columns, not bytes") {
  CHECK(display_width("hello") == 5);
  CHECK(display_width("日本語") == 6);
  CHECK(display_width("한국어") == 6);
  CHECK(display_width("🚀") == 2);
  CHECK(display_width("e\xcc\x81") == 1);  // e + combining acute
  // A family emoji joined by ZWJ is one cluster of two columns.
  CHECK(display_width("👨‍👩‍👧") == 2);
  CHECK(display_width("❤️") == 2);  // with VS16
  CHECK(display_width("") == 0);
}

TEST_CASE("cut stops at the column limit without splitting a character") {
  CHECK(cut("hello", 3) == "hel");
  CHECK(cut("日本語", 3) == "日");
  CHECK(cut("日本語", 4) == "日本");
  CHECK(cut("a🚀b", 2) == "a");
  CHECK(cut("e\xcc\x81"
            "x",
            1) == "e\xcc\x81");
  CHECK(cut("short", 80) == "short");
}

TEST_CASE("elision keeps both ends and the width") {
  CHECK(elide_middle("/home/user/projects/mission/src/main.cpp", 20) == "/home...src/main.cpp");
  CHECK(display_width(elide_middle("日本語のテキストがとても長い場合", 11)) <= 11);
  CHECK(elide_middle("short", 10) == "short");
  CHECK(elide_end("日本語のテキスト", 9) == "日本語...");
  CHECK(elide_end("abcdef", 3) == "abc");
}

TEST_CASE("wrap breaks at spaces within the width and never cuts a word short") {
  auto lines = wrap("Should I migrate the users table now or wait for the review?", 20);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "Should I migrate the");
  CHECK(lines[1] == "users table now or");
  CHECK(lines[2] == "wait for the review?");
  for (const auto& line : lines) CHECK(display_width(line) <= 20);
}

TEST_CASE("wrap measures CJK and emoji by columns and breaks long words") {
  auto lines = wrap("日本語の質問です 🚀🚀🚀", 8);
  for (const auto& line : lines) CHECK(display_width(line) <= 8);
  CHECK(lines.front() == "日本語の");
  auto words = wrap("abcdefghij", 4);
  REQUIRE(words.size() == 3);
  CHECK(words[0] == "abcd");
  CHECK(words[2] == "ij");
  // One wide character on a one-column line still goes whole.
  auto narrow = wrap("日本", 1);
  REQUIRE(narrow.size() == 2);
  CHECK(narrow[0] == "日");
}

TEST_CASE("wrap keeps paragraph breaks") {
  auto lines = wrap("first\nsecond line", 80);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "first");
  CHECK(lines[1] == "second line");
  CHECK(wrap("", 10) == std::vector<std::string>{""});
}

#include "shared/time_format.hpp"

TEST_CASE("since: relative times and dates, impossible ones refused") {
  const std::int64_t now = *mission::parse_iso8601("2026-11-25T12:00:00Z");
  CHECK(mission::parse_since("2h", now) == now - 2 * 3600 * 1000);
  CHECK(mission::parse_since("90s", now) == now - 90 * 1000);
  CHECK(mission::parse_since("3d ago", now) == now - 3 * 24 * 3600 * 1000LL);
  CHECK(mission::parse_since("1w", now) == now - 7 * 24 * 3600 * 1000LL);
  const auto yesterday = mission::parse_since("yesterday", now);
  REQUIRE(yesterday);
  CHECK(*yesterday < now - 12 * 3600 * 1000);
  CHECK(*yesterday > now - 50 * 3600 * 1000);
  CHECK(mission::parse_since("2026-11-23", now) == mission::parse_iso8601("2026-11-23"));
  CHECK_FALSE(mission::parse_since("2026-02-30", now));
  CHECK_FALSE(mission::parse_since("2025-02-29", now));
  CHECK(mission::parse_since("2024-02-29", now));
  CHECK_FALSE(mission::parse_since("2026-13-01", now));
  CHECK_FALSE(mission::parse_since("soon", now));
  CHECK_FALSE(mission::parse_since("2x", now));
}

TEST_CASE("inert keys show every control as cat -v does and keep the rest as it is") {
  // What another agent's message may not do to a terminal: ^\ (SIGQUIT),
  // ^C, ^Z, ^U (erase the line), an escape sequence, an 8-bit CSI.
  CHECK(inert_keys("status?\x1c") == "status?^\\");
  CHECK(inert_keys("a\x03"
                   "b\x1a"
                   "c\x15"
                   "d\x04") == "a^Cb^Zc^Ud^D");
  CHECK(inert_keys("\x1b[31mred\x1b]52;c;eA==\x07") == "^[[31mred^[]52;c;eA==^G");
  CHECK(inert_keys("x\xc2\x9b"
                   "2J\xc2\x85"
                   "y") == "xM-^[2JM-^Ey");
  CHECK(inert_keys("del\x7f nul") == "del^? nul");
  CHECK(inert_keys(std::string_view("a\0b", 3)) == "a^@b");
  // One line: tabs, carriage returns and newlines become spaces.
  CHECK(inert_keys("one\ttwo\r\nthree") == "one two  three");
  // Text is kept, invalid UTF-8 (a lone 8-bit C1 byte too) is U+FFFD.
  CHECK(inert_keys("日本語 ok ✓ 🚀 \xe2\x80\xae") == "日本語 ok ✓ 🚀 \xe2\x80\xae");
  CHECK(inert_keys("a\x9b"
                   "b\xff") ==
        "a\xef\xbf\xbd"
        "b\xef\xbf\xbd");
}
