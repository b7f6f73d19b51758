#include <catch2/catch.hpp>

#include "shared/framing.hpp"

using mission::Frame;
using mission::LineFramer;

TEST_CASE("lines split across chunks come out whole and in order") {
  LineFramer framer(1024);
  CHECK(framer.feed("{\"a\"").empty());
  CHECK(framer.pending_bytes() == 4);
  auto frames = framer.feed(":1}\n{\"b\":2}\n{\"c\"");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].text == "{\"a\":1}");
  CHECK(frames[1].text == "{\"b\":2}");
  frames = framer.feed(":3}\n");
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].text == "{\"c\":3}");
  CHECK(framer.pending_bytes() == 0);
}

TEST_CASE("CRLF endings are stripped and blank lines skipped") {
  LineFramer framer(1024);
  auto frames = framer.feed("one\r\n\r\n\ntwo\n");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].text == "one");
  CHECK(frames[1].text == "two");
}

TEST_CASE("an oversized line yields one oversized frame with bounded memory") {
  LineFramer framer(16);
  std::string chunk(10, 'x');
  for (int i = 0; i < 1000; ++i) {
    CHECK(framer.feed(chunk).empty());
    CHECK(framer.pending_bytes() <= 16);
  }
  auto frames = framer.feed("tail\nnext\n");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].kind == Frame::Kind::oversized);
  CHECK(frames[0].text.empty());
  CHECK(frames[1].kind == Frame::Kind::line);
  CHECK(frames[1].text == "next");
}

TEST_CASE("a line exactly at the limit is accepted") {
  LineFramer framer(8);
  auto frames = framer.feed("12345678\n123456789\n");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].kind == Frame::Kind::line);
  CHECK(frames[0].text == "12345678");
  CHECK(frames[1].kind == Frame::Kind::oversized);
}
