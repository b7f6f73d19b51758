#include "shared/jsonrpc.hpp"

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

bool is_request(const nlohmann::json& message) {
  return message.is_object() && message.contains("method") && message.contains("id");
}

}  // namespace mission::jsonrpc
