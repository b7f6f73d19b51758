#include "daemon/rpc/dispatcher.hpp"

#include <cstdio>

#include "daemon/rpc/control_session.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon {
namespace {

const MethodEntry* find_method(std::string_view name) {
  for (const MethodEntry& entry : control_methods()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// Validates the envelope and returns the method entry, or throws.
const MethodEntry& admit(MethodContext& context, const nlohmann::json& message) {
  if (!message.is_object() || !message.contains("jsonrpc") || message.at("jsonrpc") != "2.0" ||
      !message.contains("method") || !message.at("method").is_string()) {
    throw MissionError(ErrorCode::invalid_request,
                       "not a JSON-RPC 2.0 request: expected {\"jsonrpc\":\"2.0\",\"method\":...}",
                       "send one JSON object per line with jsonrpc, id, method and params");
  }
  if (message.contains("params") && !message.at("params").is_object()) {
    throw MissionError(ErrorCode::invalid_argument, "params must be an object",
                       "pass named parameters as a JSON object");
  }
  const auto& name = message.at("method").get_ref<const std::string&>();
  const MethodEntry* entry = find_method(name);
  if (entry == nullptr) {
    nlohmann::json available = nlohmann::json::array();
    for (const MethodEntry& known : control_methods()) available.push_back(known.name);
    throw MissionError(ErrorCode::method_not_found, "unknown method '" + name + "'",
                       "use one of the methods listed in details.available",
                       {{"method", name}, {"available", available}});
  }
  if (!entry->before_hello && !context.session.greeted()) {
    throw MissionError(ErrorCode::handshake_required,
                       "'" + name + "' was sent before the handshake",
                       "send hello {\"protocol\":1,\"client\":{\"name\":...}} first");
  }
  return *entry;
}

}  // namespace

nlohmann::json dispatch(MethodContext& context, const nlohmann::json& message) {
  nlohmann::json id = message.is_object() && message.contains("id") ? message.at("id") : nlohmann::json();
  bool notification = message.is_object() && !message.contains("id");
  try {
    const MethodEntry& entry = admit(context, message);
    static const nlohmann::json kNoParams = nlohmann::json::object();
    const nlohmann::json& params = message.contains("params") ? message.at("params") : kNoParams;
    auto violations = SchemaRegistry::embedded().validate(entry.params_schema, params);
    if (!violations.empty()) {
      throw MissionError(ErrorCode::invalid_argument,
                         "invalid params for '" + std::string(entry.name) + "': " + describe(violations),
                         "see schemas/" + std::string(entry.params_schema) + ".json");
    }
    nlohmann::json result = entry.handler(context, params);
    if (notification) return nullptr;
    return jsonrpc::result(id, std::move(result));
  } catch (const MissionError& e) {
    return notification ? nlohmann::json() : jsonrpc::error(id, e);
  } catch (const nlohmann::json::exception& e) {
    // A typed request failed to decode although its schema passed: a bug in
    // the schema or the struct, not the caller's fault.
    std::fprintf(stderr, "missiond: decoding request failed: %s\n", e.what());
    return notification ? nlohmann::json()
                        : jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: request failed: %s\n", e.what());
    return notification ? nlohmann::json()
                        : jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
  }
}

}  // namespace mission::daemon
