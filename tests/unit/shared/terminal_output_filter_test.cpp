#include "shared/terminal_output_filter.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "daemon/terminal/screen.hpp"

using mission::TerminalOutputFilter;

namespace {

std::string filtered(std::string_view bytes) {
  TerminalOutputFilter filter;
  std::string out;
  filter.feed(bytes, out);
  return out;
}

// The same bytes fed one at a time, then in chunks of every size up to 17.
void check_split_the_same(std::string_view bytes) {
  const std::string whole = filtered(bytes);
  for (std::size_t chunk = 1; chunk <= 17; ++chunk) {
    TerminalOutputFilter filter;
    std::string out;
    for (std::size_t at = 0; at < bytes.size(); at += chunk)
      filter.feed(bytes.substr(at, chunk), out);
    INFO("chunks of " << chunk);
    CHECK(out == whole);
  }
}

}  // namespace

TEST_CASE("the output filter keeps what a full-screen program draws") {
  // Text, UTF-8, colours (indexed, RGB, colon sub-parameters), cursor moves,
  // erasing, scroll region, the alternate screen, modes for keys, mouse and
  // paste, the cursor's style, line drawing.
  const std::string drawing =
      "\x1b[?1049h\x1b[?1h\x1b=\x1b[?2004h\x1b[?1000;1006h\x1b[?25l\x1b[2J\x1b[H"
      "\x1b[1;31mred\x1b[0m \x1b[38;2;10;20;30mrgb\x1b[4:3mcurly\x1b[m\r\n"
      "日本語 and 🚀\x1b[3;5Hmoved\x1b[K\x1b[2;20r\x1b[5B\x1b[2Cx\x1b[1@\x1b[2P\x1b[L\x1b[M"
      "\x1b"
      "7\x1b[10;1Hsaved\x1b"
      "8\x1b(0lqk\x1b(B\x0e\x0f\x1b[2 q\x1b[?2026h\x1b[?2026l\x1b[?25h\a\b\t";
  CHECK(filtered(drawing) == drawing);
  check_split_the_same(drawing);
  // What it draws is what the unfiltered bytes draw.
  mission::daemon::terminal::Screen direct(24, 80);
  mission::daemon::terminal::Screen through(24, 80);
  direct.feed(drawing);
  through.feed(filtered(drawing));
  CHECK(through.text() == direct.text());
}

TEST_CASE("the output filter drops what writes the clipboard, titles, links or fonts") {
  CHECK(filtered("a\x1b]52;c;cm0gLXJmIH4=\x07"
                 "b") == "ab");
  CHECK(filtered("a\x1b]52;c;cm0gLXJmIH4=\x1b\\b") == "ab");
  CHECK(filtered("a\x1b]0;pwned\x07"
                 "b\x1b]2;title\x1b\\c") == "abc");
  // A link's text stays; where it points, which nobody sees, goes.
  CHECK(filtered("\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\") == "docs");
  CHECK(filtered("\x1b]50;?\x07"
                 "x") == "x");
  CHECK(filtered("\x1b]11;?\x07\x1b]4;1;rgb:ff/00/00\x07"
                 "x") == "x");
  // An OSC without its end swallows what follows, up to one.
  CHECK(filtered("ok\x1b]52;c;" + std::string(100000, 'A')) == "ok");
}

TEST_CASE("the output filter drops device control strings, APC, PM and SOS") {
  CHECK(filtered("a\x1bP$qm\x1b\\b") == "ab");                          // DECRQSS
  CHECK(filtered("a\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\b") == "ab");  // tmux passthrough
  CHECK(filtered("a\x1bPq#0;2;0;0;0#0~~\x1b\\b") == "ab");              // sixels
  CHECK(filtered("a\x1b_Gf=100;AAAA\x1b\\b") == "ab");                  // kitty graphics
  CHECK(filtered("a\x1b^private\x1b\\b\x1bXstring\x1b\\c") == "abc");
}

TEST_CASE("the output filter drops queries, reports and window operations") {
  for (const char* query : {"\x1b[21t", "\x1b[8;100;300t", "\x1b[14t", "\x1b[c", "\x1b[0c",
                            "\x1b[>c", "\x1b[=c", "\x1b[6n", "\x1b[5n", "\x1b[?6n", "\x1b[?u",
                            "\x1b[>q", "\x1b[?2026$p", "\x1b[x", "\x1bZ", "\x1b[i", "\x1b[?1i"}) {
    INFO(query);
    CHECK(filtered(std::string("a") + query + "b") == "ab");
  }
}

TEST_CASE("the output filter drops resets and changes that would outlive the view") {
  CHECK(filtered("a\x1b"
                 "cb") == "ab");                           // RIS
  CHECK(filtered("a\x1b%@b") == "ab");                     // leave UTF-8
  CHECK(filtered("a\x1b G\x1b Fb") == "ab");               // 8-bit controls
  CHECK(filtered("a\x1b[>1u\x1b[<u\x1b[=1;1ub") == "ab");  // kitty keyboard
  CHECK(filtered("a\x1b[>4;2mb") == "ab");                 // modifyOtherKeys
  CHECK(filtered("a\x1b[2h\x1b[12h\x1b[20hb") == "ab");  // keyboard lock, local echo, newline mode
  // Only the kept modes of a list stay.
  CHECK(filtered("\x1b[?3;1049;1034h") == "\x1b[?1049h");
  CHECK(filtered("\x1b[4;2h") == "\x1b[4h");
  // C0 controls that draw nothing, ENQ (the answerback) among them.
  CHECK(filtered(std::string("a\0\x05\x11\x13\x7f"
                             "b",
                             7)) == "ab");
}

TEST_CASE("the output filter reads C1 controls as their ESC forms") {
  // U+009B is CSI to xterm: kept sequences are written in 7 bits.
  CHECK(filtered("\xc2\x9b"
                 "31mred") == "\x1b[31mred");
  CHECK(filtered("a\xc2\x9b"
                 "21tb") == "ab");
  CHECK(filtered("a\xc2\x9d"
                 "52;c;eA==\x07"
                 "b") == "ab");
  CHECK(filtered("a\xc2\x9d"
                 "0;t\xc2\x9c"
                 "b") == "ab");
  CHECK(filtered("a\xc2\x90$qm\xc2\x9c"
                 "b") == "ab");
  CHECK(filtered("a\xc2\x85\xc2\x84"
                 "b") == "ab");  // NEL, IND
  // Lone 8-bit bytes are not UTF-8: shown as U+FFFD, never obeyed.
  CHECK(filtered("a\x9b"
                 "31mb") ==
        "a\xef\xbf\xbd"
        "31mb");
  CHECK(filtered("a\xff\xe6\x97"
                 "b") ==
        "a\xef\xbf\xbd\xef\xbf\xbd"
        "b");
  // A character whose last byte is 0x9b is text.
  CHECK(filtered("ě") == "ě");
}

TEST_CASE("the output filter holds sequences split anywhere and drops overlong or broken ones") {
  check_split_the_same(
      "x\x1b]52;c;eA==\x1b\\y\x1b[31mz\xc2\x9b"
      "1mw\x1bP$qm\x1b\\v\x1b"
      "c\x1b[?1049;3hu日本");
  std::mt19937 random(7);
  std::string noise;
  for (int i = 0; i < 20000; ++i) noise.push_back(static_cast<char>(random() % 256));
  check_split_the_same(noise);
  // Whatever it is fed, no string control, query or reset gets out.
  const std::string out = filtered(noise);
  for (const char* banned : {"\x1b]", "\x1bP", "\x1b_", "\x1b^", "\x1bX",
                             "\x1b"
                             "c",
                             "\xc2\x9b", "\xc2\x9d"}) {
    CHECK(out.find(banned) == std::string::npos);
  }
  CHECK(filtered("\x1b[" + std::string(300, '1') + "mx") == "x");
  CHECK(filtered("\x1b[31\x1b[32mx") == "\x1b[32mx");  // ESC starts afresh
  CHECK(filtered("\x1b[31\x18mx") == "mx");            // CAN aborts
  CHECK(filtered("\x1b[1\n;2Hx") == "\n\x1b[1;2Hx");   // a control acts inside
}

TEST_CASE("the output filter knows whether it left the terminal on the alternate screen") {
  TerminalOutputFilter filter;
  std::string out;
  filter.feed("\x1b[?2004;104", out);
  CHECK_FALSE(filter.alternate_screen());
  filter.feed("9h", out);
  CHECK(filter.alternate_screen());
  filter.feed("\x1b[?1049l", out);
  CHECK_FALSE(filter.alternate_screen());
  filter.feed("\x1b[?47h", out);
  CHECK(filter.alternate_screen());
}
