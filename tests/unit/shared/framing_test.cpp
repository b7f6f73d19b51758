#include "shared/framing.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "shared/jsonrpc.hpp"

using mission::Frame;
using mission::LineFramer;
using nlohmann::json;

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

namespace {

// `message` fed to a framer of `limit` in chunks of random sizes.
Frame oversized_frame(const std::string& message, std::size_t limit, std::mt19937& rng) {
  LineFramer framer(limit);
  std::vector<Frame> frames;
  const std::string line = message + "\r\n";
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t size = 1 + rng() % 70000;
    for (auto& frame : framer.feed(std::string_view(line).substr(at, size)))
      frames.push_back(std::move(frame));
    at += size;
    CHECK(framer.pending_bytes() <= limit + mission::kOversizedEdgeBytes);
  }
  REQUIRE(frames.size() == 1);
  REQUIRE(frames[0].kind == Frame::Kind::oversized);
  return frames[0];
}

}  // namespace

TEST_CASE(
    "an oversized frame keeps its first and last bytes, and the request's id is read from them") {
  std::mt19937 rng(1125);
  const std::string big(300000, 'y');
  // The id last, as the TypeScript SDK writes it; first; a string; in both.
  const nlohmann::ordered_json last = {
      {"method", "tools/call"},
      {"params", {{"name", "workflow_set_plan"}, {"arguments", {{"id", "wf-1"}, {"text", big}}}}},
      {"jsonrpc", "2.0"},
      {"id", 42}};
  REQUIRE(last.dump().substr(0, 9) == R"({"method")");
  for (int round = 0; round < 20; ++round) {
    Frame frame = oversized_frame(last.dump(), 100000, rng);
    CHECK(frame.head.size() == mission::kOversizedEdgeBytes);
    CHECK(frame.tail.size() == mission::kOversizedEdgeBytes - 1);  // its "\r" dropped
    CHECK(frame.tail.back() == '}');
    auto recovered = mission::jsonrpc::recover_request(frame.head, frame.tail);
    CHECK(recovered.id == 42);
    CHECK(recovered.method == "tools/call");
    CHECK(recovered.tool == "workflow_set_plan");  // not the arguments' "id"
  }
  std::string first =
      R"({"jsonrpc":"2.0","id":"req \"7\"","method":"tools/call","params":{"arguments":{"id":9,"t":")" +
      big + R"("},"name":"task_set_plan"}})";
  auto recovered = mission::jsonrpc::recover_request(oversized_frame(first, 1000, rng).head,
                                                     oversized_frame(first, 1000, rng).tail);
  CHECK(recovered.id == "req \"7\"");
  CHECK(recovered.tool.empty());  // its name came after the cut
  // A string id at the end, with spaces.
  std::string spaced =
      R"({ "method" : "ping", "params" : { "x" : ")" + big + R"(" } , "id" : "a\"b" } )";
  Frame frame = oversized_frame(spaced, 1000, rng);
  CHECK(mission::jsonrpc::recover_request(frame.head, frame.tail).id == "a\"b");
  CHECK(mission::jsonrpc::recover_request(frame.head, frame.tail).method == "ping");
}

TEST_CASE("no id is made up: a nested one, a notification, a cut or invalid one give null") {
  using mission::jsonrpc::recover_request;
  // The id of the arguments, at depth 3, is not the request's.
  CHECK(recover_request(R"({"method":"tools/call","params":{"arguments":{"id":5,"x":"..)",
                        R"(..."}}})")
            .id.is_null());
  CHECK(recover_request(R"({"method":"notifications/x","params":{"text":"..)", R"(.."}})")
            .id.is_null());
  // Cut inside the id.
  CHECK(recover_request(R"({"id":12)", R"(3,"x":"..."})").id.is_null());
  // Ids a reply cannot carry exactly.
  CHECK(recover_request(R"({"id":1.5,)", "").id.is_null());
  CHECK(recover_request("", R"(,"id":true})").id.is_null());
  CHECK(recover_request("", R"(,"id":9007199254740993})").id.is_null());
  CHECK(recover_request("", R"(x","id":-3})").id == -3);
  // Not the last member: the tail is not enough.
  CHECK(recover_request("", R"(,"id":3,"x":1})").id.is_null());
  CHECK(recover_request("", "garbage").id.is_null());
}
