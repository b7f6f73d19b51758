#include "shared/error_code.hpp"

#include <catch2/catch.hpp>

#include "shared/jsonrpc.hpp"

using mission::ErrorCode;
using mission::MissionError;

TEST_CASE("every error code has a stable name that maps back") {
  for (int i = 0; i <= static_cast<int>(ErrorCode::internal); ++i) {
    auto code = static_cast<ErrorCode>(i);
    auto name = mission::error_code_name(code);
    INFO(name);
    CHECK(!name.empty());
    CHECK(mission::error_code_from_name(name) == code);
  }
  CHECK(!mission::error_code_from_name("no_such_code").has_value());
}

TEST_CASE("JSON-RPC codes follow the reserved ranges") {
  CHECK(mission::jsonrpc_code(ErrorCode::parse_error) == -32700);
  CHECK(mission::jsonrpc_code(ErrorCode::invalid_request) == -32600);
  CHECK(mission::jsonrpc_code(ErrorCode::method_not_found) == -32601);
  CHECK(mission::jsonrpc_code(ErrorCode::invalid_argument) == -32602);
  CHECK(mission::jsonrpc_code(ErrorCode::not_found) == -32000);
}

TEST_CASE("an error payload survives the wire") {
  MissionError original(ErrorCode::payload_too_large, "too big", "send less", {{"limit", 10}});
  nlohmann::json wire = mission::jsonrpc::error(5, original);
  CHECK(wire["error"]["code"] == -32000);
  CHECK(wire["error"]["message"] == "too big");
  nlohmann::json payload = wire["error"]["data"];
  CHECK(payload == nlohmann::json{{"code", "payload_too_large"},
                                  {"message", "too big"},
                                  {"retryable", false},
                                  {"hint", "send less"},
                                  {"details", {{"limit", 10}}}});
  MissionError decoded = MissionError::from_payload(payload);
  CHECK(decoded.code() == ErrorCode::payload_too_large);
  CHECK(std::string(decoded.what()) == "too big");
  CHECK(decoded.hint() == "send less");
  CHECK(decoded.details()["limit"] == 10);
  CHECK(MissionError::from_payload({{"code", "???"}}).code() == ErrorCode::internal);
}

TEST_CASE("invalid UTF-8 never breaks a wire line") {
  std::string line =
      mission::jsonrpc::to_line(mission::jsonrpc::result(1, {{"text", "bad \xff byte"}}));
  CHECK(line.back() == '\n');
  CHECK(nlohmann::json::parse(line)["result"]["text"].get<std::string>().find("bad") == 0);
}
