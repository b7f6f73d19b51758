#pragma once
// JSON-RPC 2.0 message construction, shared by the control API and MCP.

#include <nlohmann/json.hpp>
#include <string>

#include "shared/error_code.hpp"

namespace mission::jsonrpc {

nlohmann::json request(const nlohmann::json& id, std::string_view method,
                       nlohmann::json params = nlohmann::json::object());
nlohmann::json notification(std::string_view method,
                            nlohmann::json params = nlohmann::json::object());
nlohmann::json result(const nlohmann::json& id, nlohmann::json result);

// An error response whose `data` carries the mission error payload
// {code, message, retryable, hint, details?} so clients can act on it.
nlohmann::json error(const nlohmann::json& id, const MissionError& err);

// One compact line, terminated by "\n", ready for the wire. Invalid UTF-8 is
// replaced rather than thrown on, so a bad byte from an agent never kills a
// connection.
std::string to_line(const nlohmann::json& message);

// Whether `id` is one a reply can carry back exactly: a string, null, or an
// integer of at most 2^53 - 1 in magnitude (what every JSON reader keeps
// exactly). Anything else is refused with invalid_id_error().
bool valid_id(const nlohmann::json& id);
MissionError invalid_id_error();

// What can be read of a request too large to keep, from its first and last
// bytes (Frame::head, Frame::tail): its id (a top-level "id" member in the
// head, or the last member before the closing brace in the tail, as most
// clients write it), its method and, for tools/call, the tool's name.
// Missing members are null or empty; an id that valid_id refuses is null.
struct RecoveredRequest {
  nlohmann::json id;
  std::string method;
  std::string tool;
};
RecoveredRequest recover_request(std::string_view head, std::string_view tail);

// Whether `message` is a request (has a method and an id).
bool is_request(const nlohmann::json& message);

}  // namespace mission::jsonrpc
