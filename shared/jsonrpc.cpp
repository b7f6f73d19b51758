#include "shared/jsonrpc.hpp"

#include <cstdint>

namespace mission::jsonrpc {

nlohmann::json request(const nlohmann::json& id, std::string_view method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

nlohmann::json notification(std::string_view method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

nlohmann::json result(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json error(const nlohmann::json& id, const MissionError& err) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error",
           {{"code", jsonrpc_code(err.code())}, {"message", err.what()}, {"data", err.to_payload()}}}};
}

std::string to_line(const nlohmann::json& message) {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  return line;
}

bool valid_id(const nlohmann::json& id) {
  constexpr std::int64_t kMaxExactInteger = (std::int64_t{1} << 53) - 1;
  if (id.is_null() || id.is_string()) return true;
  if (id.is_number_unsigned()) return id.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxExactInteger);
  if (id.is_number_integer()) {
    const auto value = id.get<std::int64_t>();
    return value >= -kMaxExactInteger && value <= kMaxExactInteger;
  }
  return false;
}

MissionError invalid_id_error() {
  return MissionError(ErrorCode::invalid_request,
                      "id must be a string or an integer between -(2^53 - 1) and 2^53 - 1",
                      "number requests 1, 2, 3, ... or use string ids");
}

bool is_request(const nlohmann::json& message) {
  return message.is_object() && message.contains("method") && message.contains("id");
}

}  // namespace mission::jsonrpc
