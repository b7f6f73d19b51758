#include "shared/bounded_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

using mission::json_nesting_depth;
using mission::limits::kMaxJsonDepth;

TEST_CASE("the depth scan counts arrays and objects, skipping strings and escapes") {
  CHECK(json_nesting_depth("1", 10) == 0);
  CHECK(json_nesting_depth("[]", 10) == 1);
  CHECK(json_nesting_depth(R"({"a":[{"b":[]}],"c":{}})", 10) == 4);
  CHECK(json_nesting_depth(R"(["[[[[", "\"[[[", {"k\\":"{{"}])", 10) == 2);
  // It stops counting past the limit, whatever follows.
  CHECK(json_nesting_depth(std::string(1000000, '['), 5) == 6);
}

TEST_CASE("text nested deeper than the limit is never parsed") {
  std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(!mission::json_too_deep(at_limit));
  CHECK(!mission::parse_json_or_discarded(at_limit).is_discarded());
  std::string deep = std::string(48000, '[') + std::string(48000, ']');
  CHECK(mission::json_too_deep(deep));
  CHECK(mission::parse_json_or_discarded(deep).is_discarded());
  CHECK(mission::parse_json_or_discarded("{nope").is_discarded());
  CHECK_THROWS_AS(mission::parse_stored_json(deep, "metadata"), mission::MissionError);
  CHECK_THROWS_AS(mission::parse_stored_json("{nope", "metadata"), mission::MissionError);
  CHECK(mission::parse_stored_json(R"({"a":1})", "metadata")["a"] == 1);
  mission::MissionError error = mission::json_too_deep_error();
  CHECK(error.code() == mission::ErrorCode::invalid_request);
  CHECK(!error.hint().empty());
}

TEST_CASE("an excerpt of untrusted bytes is valid UTF-8 and never splits a character") {
  CHECK(mission::valid_utf8_excerpt("plain", 200) == "plain");
  // "é" is two bytes: a cut after the first drops it whole.
  CHECK(mission::valid_utf8_excerpt("ab\xC3\xA9", 3) == "ab");
  CHECK(mission::valid_utf8_excerpt("ab\xC3\xA9", 4) == "ab\xC3\xA9");
  // Invalid bytes, overlong forms and surrogates become U+FFFD.
  CHECK(mission::valid_utf8_excerpt("a\xFF"
                                    "b",
                                    200) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(mission::valid_utf8_excerpt("\xC0\xAF", 200) == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(mission::valid_utf8_excerpt("\xED\xA0\x80", 200).find("\xED") == std::string::npos);
  CHECK(mission::valid_utf8_excerpt("x\xE2\x82", 200) == "x\xEF\xBF\xBD\xEF\xBF\xBD");
  std::string excerpt = mission::valid_utf8_excerpt(std::string(300, '\xE9'), 200);
  CHECK(excerpt.size() <= 200);
  CHECK_NOTHROW(nlohmann::json(excerpt).dump());
}

TEST_CASE("ids a reply can carry back exactly") {
  using mission::jsonrpc::valid_id;
  CHECK(valid_id(nullptr));
  CHECK(valid_id("abc"));
  CHECK(valid_id(0));
  CHECK(valid_id(9007199254740991LL));
  CHECK(valid_id(-9007199254740991LL));
  CHECK(!valid_id(9007199254740992LL));
  CHECK(!valid_id(-9007199254740992LL));
  CHECK(!valid_id(nlohmann::json::parse("18446744073709551615")));
  CHECK(!valid_id(1.5));
  CHECK(!valid_id(true));
  CHECK(!valid_id(nlohmann::json::array()));
  CHECK(!valid_id(nlohmann::json::object()));
}
