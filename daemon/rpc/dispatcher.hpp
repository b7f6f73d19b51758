#pragma once
// The one gate every control-API request passes: handshake check, method
// lookup in the one table, params validation against schemas/, then the
// handler with a typed request. Errors of any kind become JSON-RPC errors.

#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "shared/error_code.hpp"

namespace mission::daemon {

class Daemon;
class ControlSession;

// What a handler may touch: the daemon's state and the calling session.
struct MethodContext {
  Daemon& daemon;
  ControlSession& session;
};

using MethodHandler = std::function<nlohmann::json(MethodContext&, const nlohmann::json& params)>;

struct MethodEntry {
  std::string_view name;
  std::string_view params_schema;  // schema id under schemas/, e.g. "control/hello.params"
  bool before_hello;               // callable before the handshake (only hello itself)
  MethodHandler handler;
};

// Wraps a handler taking a typed request struct (decoded with from_json after
// validation) so the table holds one handler type.
template <class Request, nlohmann::json (*Handler)(MethodContext&, const Request&)>
nlohmann::json typed(MethodContext& context, const nlohmann::json& params) {
  return Handler(context, params.get<Request>());
}

// The control-API method table (rpc/method_table.cpp).
std::span<const MethodEntry> control_methods();

// Handles one decoded JSON-RPC message and returns the response to send, or
// null for a notification. Never throws.
nlohmann::json dispatch(MethodContext& context, const nlohmann::json& message);

}  // namespace mission::daemon
