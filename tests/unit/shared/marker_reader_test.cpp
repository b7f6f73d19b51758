#include "shared/marker_reader.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using mission::kMarkerPrefix;
using mission::MarkerLine;
using mission::MarkerReader;

namespace {

const std::string kJson =
    R"({"version":1,"agentExecutionId":"ae-0123456789","eventId":"e1","signal":{"type":"progress","summary":"hi"}})";
const std::string kMarker = std::string(kMarkerPrefix) + kJson;

std::vector<MarkerLine> read_all(std::string_view input, std::size_t max = 64 * 1024) {
  MarkerReader reader(max);
  std::vector<MarkerLine> out;
  reader.feed(input, out);
  reader.finish(out);
  return out;
}

std::vector<MarkerLine> read_in_chunks(std::string_view input, const std::vector<std::size_t>& cuts,
                                       std::size_t max = 64 * 1024) {
  MarkerReader reader(max);
  std::vector<MarkerLine> out;
  std::size_t from = 0;
  for (std::size_t cut : cuts) {
    reader.feed(input.substr(from, cut - from), out);
    from = cut;
  }
  reader.feed(input.substr(from), out);
  reader.finish(out);
  return out;
}

std::vector<MarkerLine> read_bytewise(std::string_view input, std::size_t max = 64 * 1024) {
  MarkerReader reader(max);
  std::vector<MarkerLine> out;
  for (char c : input) reader.feed(std::string_view(&c, 1), out);
  reader.finish(out);
  return out;
}

bool same(const std::vector<MarkerLine>& a, const std::vector<MarkerLine>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].json != b[i].json || a[i].line_number != b[i].line_number)
      return false;
  }
  return true;
}

void require_marker(const MarkerLine& line, const std::string& json, std::uint64_t line_number) {
  CHECK(line.kind == MarkerLine::Kind::marker);
  CHECK(line.json == json);
  CHECK(line.line_number == line_number);
}

}  // namespace

TEST_CASE("a plain marker line is found with its JSON and line number", "[marker]") {
  auto out = read_all("hello\n" + kMarker + "\nbye\n");
  REQUIRE(out.size() == 1);
  require_marker(out[0], kJson, 2);
}

TEST_CASE("a marker split at every byte offset is found the same way", "[marker]") {
  const std::string input = "start\n\x1b[32m  " + kMarker + "\x1b[0m\r\nend\n\t" + kMarker + "\n";
  const auto whole = read_all(input);
  REQUIRE(whole.size() == 2);
  require_marker(whole[0], kJson, 2);
  require_marker(whole[1], kJson, 4);

  for (std::size_t cut = 0; cut <= input.size(); ++cut) {
    INFO("split at " << cut);
    CHECK(same(read_in_chunks(input, {cut}), whole));
  }
  // Every pair of split points in the first marker line (three reads).
  const std::size_t first_end = input.find('\n', 6) + 1;
  for (std::size_t a = 0; a <= first_end; ++a) {
    for (std::size_t b = a; b <= first_end; ++b) {
      INFO("splits at " << a << " and " << b);
      CHECK(same(read_in_chunks(input, {a, b}), whole));
    }
  }
  CHECK(same(read_bytewise(input), whole));
}

TEST_CASE("the prefix split across reads is recognised", "[marker]") {
  MarkerReader reader;
  std::vector<MarkerLine> out;
  reader.feed("log line\n@agent-ex", out);
  CHECK(out.empty());
  CHECK(reader.buffered_bytes() == 0);
  reader.feed("ecution:", out);
  reader.feed(":{\"a\":1}", out);
  CHECK(out.empty());
  reader.feed("\n", out);
  REQUIRE(out.size() == 1);
  require_marker(out[0], R"({"a":1})", 2);
}

TEST_CASE("CRLF line endings are removed", "[marker]") {
  auto out = read_all("a\r\n" + kMarker + "\r\n" + kMarker + " \t\r\n");
  REQUIRE(out.size() == 2);
  require_marker(out[0], kJson, 2);
  require_marker(out[1], kJson, 3);
}

TEST_CASE("ANSI colour codes before, after and inside are removed", "[marker]") {
  auto out = read_all("\x1b[1;32m" + kMarker + "\x1b[0m\n" +         //
                      "\x1b[0m\x1b[2K\x1b[G" + kMarker + "\n" +      //
                      "\x1b(B\x1b[m" + kMarker + "\x1b[K \r\n" +     // tput sgr0 and erase-line
                      "@agent-\x1b[33mexecution::" + kJson + "\n" +  // inside the prefix
                      kMarker.substr(0, 40) + "\x1b[31m" + kMarker.substr(40) + "\x1b[0m\n");
  REQUIRE(out.size() == 5);
  for (std::size_t i = 0; i < out.size(); ++i) require_marker(out[i], kJson, i + 1);
}

TEST_CASE("OSC sequences ended by BEL or ST are removed", "[marker]") {
  auto out = read_all("\x1b]0;window title\x07" + kMarker + "\n" +
                      "\x1b]8;;https://example.com/\x1b\\" + kMarker + "\x1b]8;;\x1b\\\n");
  REQUIRE(out.size() == 2);
  require_marker(out[0], kJson, 1);
  require_marker(out[1], kJson, 2);
}

TEST_CASE("leading spaces and tabs are allowed", "[marker]") {
  auto out = read_all("    " + kMarker + "\n\t \t" + kMarker + "\n");
  REQUIRE(out.size() == 2);
  require_marker(out[0], kJson, 1);
  require_marker(out[1], kJson, 2);
}

TEST_CASE("text before the prefix means the line is not a marker", "[marker]") {
  auto out = read_all("try " + kMarker + "\n" +                  //
                      "echo \"" + kMarker + "\"\n" +             //
                      "> " + kMarker + "\n" +                    //
                      "\x1b[32mok\x1b[0m " + kMarker + "\n" +    //
                      "@" + kMarker + "\n" +                     //
                      "@agent-execution:" + kJson + "\n" +       //
                      "@agent- execution::" + kJson + "\n" +     //
                      "\r" + kMarker + "\n" +                    //
                      "\x1b\x01" + kMarker + "\n" +              // not an escape sequence
                      "\x1b[31\x80" + kMarker + "\n" +           // broken CSI
                      "\xef\xbb\xbf" + kMarker + "\n" +          // BOM
                      "\x1b@agent-execution::" + kJson + "\n");  // ESC @ eats the '@'
  CHECK(out.empty());
}

TEST_CASE("two markers in one chunk", "[marker]") {
  auto out = read_all(kMarker + "\n" + std::string(kMarkerPrefix) + R"({"b":2})" + "\n");
  REQUIRE(out.size() == 2);
  require_marker(out[0], kJson, 1);
  require_marker(out[1], R"({"b":2})", 2);
}

TEST_CASE("empty lines count and are never markers", "[marker]") {
  MarkerReader reader;
  std::vector<MarkerLine> out;
  reader.feed("\n\n\r\n   \n\x1b[0m\n", out);
  CHECK(out.empty());
  CHECK(reader.lines_seen() == 5);
  reader.feed("\n" + kMarker + "\n\n", out);
  REQUIRE(out.size() == 1);
  require_marker(out[0], kJson, 7);
  CHECK(reader.lines_seen() == 8);
  reader.finish(out);
  CHECK(reader.lines_seen() == 8);  // nothing after the last newline
}

TEST_CASE("a bare prefix is a marker with empty JSON", "[marker]") {
  auto out = read_all(std::string(kMarkerPrefix) + "\n" + std::string(kMarkerPrefix) + "  \r\n");
  REQUIRE(out.size() == 2);
  require_marker(out[0], "", 1);
  require_marker(out[1], "", 2);
}

TEST_CASE("a 5 MB line without newline costs no memory", "[marker]") {
  for (std::string fill : {"x", " ", "@agent", "\x1b[0m"}) {
    INFO("line made of \"" << fill << "\"");
    MarkerReader reader;
    std::vector<MarkerLine> out;
    std::string chunk;
    while (chunk.size() < 64 * 1024) chunk += fill;
    for (std::size_t fed = 0; fed < 5 * 1024 * 1024; fed += chunk.size()) {
      reader.feed(chunk, out);
      REQUIRE(reader.buffered_bytes() == 0);
    }
    CHECK(reader.lines_seen() == 0);
    reader.feed("\n" + kMarker + "\n", out);
    REQUIRE(out.size() == 1);
    require_marker(out[0], kJson, 2);
    CHECK(reader.buffered_bytes() == 0);
  }
}

TEST_CASE("an oversized marker yields one oversized entry, then markers go on", "[marker]") {
  const std::size_t max = 1024;
  MarkerReader reader(max);
  std::vector<MarkerLine> out;
  reader.feed("first\n" + std::string(kMarkerPrefix) + "{\"big\":\"", out);
  const std::string filler(100, 'y');
  for (int i = 0; i < 1000; ++i) {
    reader.feed(filler, out);
    REQUIRE(reader.buffered_bytes() <= max + 1);
  }
  CHECK(out.empty());
  reader.feed("\"}\n" + kMarker + "\n", out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].kind == MarkerLine::Kind::oversized);
  CHECK(out[0].json.empty());
  CHECK(out[0].line_number == 2);
  require_marker(out[1], kJson, 3);

  // An oversized marker at EOF is reported by finish().
  reader.feed(std::string(kMarkerPrefix) + std::string(5000, 'z'), out);
  reader.finish(out);
  REQUIRE(out.size() == 3);
  CHECK(out[2].kind == MarkerLine::Kind::oversized);
  CHECK(out[2].line_number == 4);
}

TEST_CASE("the limit counts the raw line without its line ending", "[marker]") {
  const std::size_t max = 64;
  const std::string exact =
      std::string(kMarkerPrefix) + std::string(max - kMarkerPrefix.size(), 'a');
  REQUIRE(exact.size() == max);
  for (const std::string ending : {"\n", "\r\n"}) {
    auto out = read_all(exact + ending, max);
    REQUIRE(out.size() == 1);
    CHECK(out[0].kind == MarkerLine::Kind::marker);
    out = read_bytewise(exact + "b" + ending, max);
    REQUIRE(out.size() == 1);
    CHECK(out[0].kind == MarkerLine::Kind::oversized);
  }
  // Escape sequences and leading blanks are part of the line.
  auto out = read_all("\x1b[0m" + exact + "\n", max);
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == MarkerLine::Kind::oversized);
  // A long non-marker line is never reported.
  CHECK(read_all(std::string(10 * max, 'q') + "\n", max).empty());
  // So is a marker behind megabytes of blanks.
  out = read_all(std::string(1 << 20, ' ') + kMarker + "\n", max);
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == MarkerLine::Kind::oversized);
}

TEST_CASE("binary junk and NUL bytes do not confuse the reader", "[marker]") {
  std::string junk("\0\xff\xfe\x1b\0\x80\xc3(\x1b[\0\x1b]\0", 14);
  const std::string input = junk + "\n" + std::string(1, '\0') + kMarker + "\n" + kMarker +
                            std::string("\0\0", 2) + "\n" + junk + junk + "\n";
  auto out = read_all(input);
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == MarkerLine::Kind::marker);
  CHECK(out[0].json == kJson + std::string("\0\0", 2));  // JSON validity is the daemon's business
  CHECK(out[0].line_number == 3);
  CHECK(same(read_bytewise(input), out));

  // An unterminated OSC swallows the rest of its line only.
  out = read_all("\x1b]0;title" + kMarker + "\n" + kMarker + "\n");
  REQUIRE(out.size() == 1);
  CHECK(out[0].line_number == 2);
}

TEST_CASE("a marker at EOF without newline is reported by finish", "[marker]") {
  MarkerReader reader;
  std::vector<MarkerLine> out;
  reader.feed("one\ntwo\n" + kMarker + "\r", out);
  CHECK(out.empty());
  CHECK(reader.buffered_bytes() > 0);
  CHECK(reader.lines_seen() == 2);
  reader.finish(out);
  REQUIRE(out.size() == 1);
  require_marker(out[0], kJson, 3);
  CHECK(reader.lines_seen() == 3);
  CHECK(reader.buffered_bytes() == 0);
  reader.finish(out);
  CHECK(out.size() == 1);
  CHECK(reader.lines_seen() == 3);

  // A last line that is not a marker still counts.
  MarkerReader other;
  other.feed("a\nb", out);
  other.finish(out);
  CHECK(other.lines_seen() == 2);
  CHECK(out.size() == 1);
}

TEST_CASE("line numbers follow every newline", "[marker]") {
  std::string input;
  std::vector<std::uint64_t> expected;
  for (int i = 1; i <= 500; ++i) {
    if (i % 7 == 0) {
      input += kMarker + "\n";
      expected.push_back(static_cast<std::uint64_t>(i));
    } else if (i % 5 == 0) {
      input += "\n";
    } else {
      input += "\x1b[2mline " + std::to_string(i) + "\x1b[0m\n";
    }
  }
  MarkerReader reader;
  std::vector<MarkerLine> out;
  for (std::size_t at = 0; at < input.size(); at += 97) reader.feed(input.substr(at, 97), out);
  REQUIRE(out.size() == expected.size());
  for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i].line_number == expected[i]);
  CHECK(reader.lines_seen() == 500);
}

TEST_CASE("random output gives the same markers however it is chunked", "[marker]") {
  const std::vector<std::string> pieces = {"\n",
                                           "\r\n",
                                           " ",
                                           "\t",
                                           "text",
                                           "@",
                                           "@agent-",
                                           "execution",
                                           "::",
                                           "{\"a\":1}",
                                           "\x1b",
                                           "\x1b[",
                                           "\x1b[0m",
                                           "\x1b]0;t\x07",
                                           "\x1b]8;;",
                                           "\x1b\\",
                                           "\x07",
                                           std::string(1, '\0'),
                                           "\xff",
                                           kMarker,
                                           kMarker,
                                           std::string(kMarkerPrefix),
                                           std::string(300, 'w')};
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    std::string input;
    const int count = static_cast<int>(rng() % 200);
    for (int i = 0; i < count; ++i) input += pieces[rng() % pieces.size()];
    const std::size_t max = 100 + rng() % 400;
    const auto whole = read_all(input, max);
    std::vector<std::size_t> cuts;
    for (std::size_t at = rng() % 50; at < input.size(); at += 1 + rng() % 50) cuts.push_back(at);
    INFO("round " << round);
    CHECK(same(read_in_chunks(input, cuts, max), whole));
    CHECK(same(read_bytewise(input, max), whole));
  }
}
