#pragma once
// The one enum of error codes used on every wire (control API, MCP tool
// results, CLI --json output), and the exception that carries one.

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mission {

enum class ErrorCode {
  invalid_argument,
  not_found,
  unauthorized,
  forbidden,
  execution_final,
  unsupported_tool,
  payload_too_large,
  duplicate,
  idempotency_conflict,
  idempotency_in_progress,
  mixed_pagination,
  ambiguous_target,
  already_claimed,
  git_error,
  parse_error,
  invalid_request,
  method_not_found,
  handshake_required,
  protocol_mismatch,
  daemon_unavailable,
  already_running,
  unsafe_runtime_dir,
  shutting_down,
  agent_not_reading,
  internal,
};

// Stable snake_case name, e.g. "payload_too_large".
std::string_view error_code_name(ErrorCode code);

// Inverse of error_code_name; nullopt for an unknown name.
std::optional<ErrorCode> error_code_from_name(std::string_view name);

// The JSON-RPC 2.0 error code that carries `code` on the wire: the reserved
// codes for parse/request/method/params errors, -32000 for everything else.
int jsonrpc_code(ErrorCode code);

// Whether retrying the same request later can succeed.
bool is_retryable(ErrorCode code);

// Thrown by handlers and clients; the dispatcher turns it into a wire error.
class MissionError : public std::runtime_error {
 public:
  MissionError(ErrorCode code, std::string message, std::string hint = {},
               nlohmann::json details = nullptr);

  ErrorCode code() const { return code_; }
  const std::string& hint() const { return hint_; }
  const nlohmann::json& details() const { return details_; }

  // {code, message, retryable, hint, details?}: the shape DESIGN.md §5 fixes.
  nlohmann::json to_payload() const;
  static MissionError from_payload(const nlohmann::json& payload);

 private:
  ErrorCode code_;
  std::string hint_;
  nlohmann::json details_;
};

}  // namespace mission
