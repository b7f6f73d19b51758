#pragma once
// The one gate every control-API request passes: handshake check, method
// lookup in the one table, params validation against schemas/, decoding into
// the method's typed request, the transaction of a method that writes, and
// the reply budget. Errors of any kind become JSON-RPC errors.

#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "daemon/rpc/method_context.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon {

// How a method uses the store.
enum class Access {
  read,   // reads only
  write,  // writes: the dispatcher runs it in one transaction, events after the commit
  // manages its own transactions: it must commit before an effect outside
  // the store (execution.launch spawns a process only once its row is
  // committed)
  self,
};

using MethodHandler = nlohmann::json (*)(MethodContext&, const nlohmann::json& params);

struct MethodEntry {
  std::string_view name;
  std::string_view params_schema;  // schema id under schemas/, e.g. "control/hello.params"
  // What a success returns, e.g. "control/hello.result": the contract the
  // CLI and the board read by. Checked on every reply when
  // MISSIOND_CHECK_RESULTS is set (the test suite sets it).
  std::string_view result_schema;
  bool before_hello;  // callable before the handshake (only hello itself)
  Access access;
  MethodHandler handler;
};

// Decodes the validated params into `Request` (its from_json) and calls
// `Handler`, so the table holds one handler type and handlers never read
// raw JSON.
template <class Request, nlohmann::json (*Handler)(MethodContext&, const Request&)>
nlohmann::json typed(MethodContext& context, const nlohmann::json& params) {
  return Handler(context, params.get<Request>());
}

// The control-API method table (rpc/method_table.cpp).
std::span<const MethodEntry> control_methods();

// Handles one decoded JSON-RPC message and returns the response line to
// send (empty for a notification). A result larger than kMaxReplyBytes is
// answered payload_too_large instead. Never throws.
std::string dispatch(ControlServices& services, ControlSession& session,
                     const nlohmann::json& message);

// The same, for a caller the daemon has signed in some other way (the
// board, over HTTP): no handshake, and a method that needs a control
// connection of its own (events.subscribe, mcp.attach, ...) is refused.
std::string dispatch_without_session(ControlServices& services, const nlohmann::json& message);

// The same for any method, a deferred one (workflow.run, workflow.retry)
// included: `reply` gets the response line, at once or once the method's
// work is done; never for a notification.
void dispatch_without_session(ControlServices& services, const nlohmann::json& message,
                              std::function<void(std::string line)> reply);

}  // namespace mission::daemon
