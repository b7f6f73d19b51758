#include "shared/error_code.hpp"

#include <array>
#include <utility>

#include "shared/out_of_memory.hpp"

namespace mission {
namespace {

struct ErrorInfo {
  ErrorCode code;
  std::string_view name;
  int jsonrpc;
  bool retryable;
};

constexpr int kServerError = -32000;

constexpr std::array kErrorTable{
    ErrorInfo{ErrorCode::invalid_argument, "invalid_argument", -32602, false},
    ErrorInfo{ErrorCode::not_found, "not_found", kServerError, false},
    ErrorInfo{ErrorCode::unauthorized, "unauthorized", kServerError, false},
    ErrorInfo{ErrorCode::forbidden, "forbidden", kServerError, false},
    ErrorInfo{ErrorCode::execution_final, "execution_final", kServerError, false},
    ErrorInfo{ErrorCode::unsupported_tool, "unsupported_tool", -32601, false},
    ErrorInfo{ErrorCode::payload_too_large, "payload_too_large", kServerError, false},
    ErrorInfo{ErrorCode::duplicate, "duplicate", kServerError, false},
    ErrorInfo{ErrorCode::idempotency_conflict, "idempotency_conflict", kServerError, false},
    ErrorInfo{ErrorCode::idempotency_in_progress, "idempotency_in_progress", kServerError, true},
    ErrorInfo{ErrorCode::mixed_pagination, "mixed_pagination", -32602, false},
    ErrorInfo{ErrorCode::ambiguous_target, "ambiguous_target", kServerError, false},
    ErrorInfo{ErrorCode::already_claimed, "already_claimed", kServerError, false},
    ErrorInfo{ErrorCode::git_error, "git_error", kServerError, true},
    ErrorInfo{ErrorCode::parse_error, "parse_error", -32700, false},
    ErrorInfo{ErrorCode::invalid_request, "invalid_request", -32600, false},
    ErrorInfo{ErrorCode::method_not_found, "method_not_found", -32601, false},
    ErrorInfo{ErrorCode::handshake_required, "handshake_required", kServerError, false},
    ErrorInfo{ErrorCode::protocol_mismatch, "protocol_mismatch", kServerError, false},
    ErrorInfo{ErrorCode::daemon_unavailable, "daemon_unavailable", kServerError, true},
    ErrorInfo{ErrorCode::already_running, "already_running", kServerError, false},
    ErrorInfo{ErrorCode::unsafe_runtime_dir, "unsafe_runtime_dir", kServerError, false},
    ErrorInfo{ErrorCode::shutting_down, "shutting_down", kServerError, true},
    ErrorInfo{ErrorCode::agent_not_reading, "agent_not_reading", kServerError, true},
    ErrorInfo{ErrorCode::internal, "internal", -32603, true},
};

const ErrorInfo& info(ErrorCode code) {
  for (const auto& entry : kErrorTable) {
    if (entry.code == code) return entry;
  }
  return kErrorTable.back();
}

}  // namespace

std::string_view error_code_name(ErrorCode code) {
  return info(code).name;
}

std::optional<ErrorCode> error_code_from_name(std::string_view name) {
  for (const auto& entry : kErrorTable) {
    if (entry.name == name) return entry.code;
  }
  return std::nullopt;
}

int jsonrpc_code(ErrorCode code) {
  return info(code).jsonrpc;
}

bool is_retryable(ErrorCode code) {
  return info(code).retryable;
}

MissionError::MissionError(ErrorCode code, std::string message, std::string hint,
                           nlohmann::json details)
    : std::runtime_error(std::move(message)),
      code_(code),
      hint_(std::move(hint)),
      details_(std::move(details)) {}

nlohmann::json MissionError::to_payload() const {
  nlohmann::json payload = {{"code", error_code_name(code_)},
                            {"message", what()},
                            {"retryable", is_retryable(code_)},
                            {"hint", hint_}};
  if (!details_.is_null()) payload["details"] = details_;
  return payload;
}

MissionError MissionError::from_payload(const nlohmann::json& payload) {
  ErrorCode code = ErrorCode::internal;
  if (payload.is_object() && payload.contains("code") && payload.at("code").is_string()) {
    code =
        error_code_from_name(payload.at("code").get<std::string>()).value_or(ErrorCode::internal);
  }
  auto text = [&](const char* key) {
    return payload.is_object() && payload.contains(key) && payload.at(key).is_string()
               ? payload.at(key).get<std::string>()
               : std::string();
  };
  nlohmann::json details = payload.is_object() && payload.contains("details")
                               ? payload.at("details")
                               : nlohmann::json(nullptr);
  return MissionError(code, text("message"), text("hint"), details);
}

MissionError out_of_memory_error(std::string_view request) {
  return MissionError(
      ErrorCode::internal,
      "the daemon ran out of memory handling " + std::string(request) +
          "; nothing of it was recorded",
      "retry; if it keeps failing, free memory on this machine or restart the daemon "
      "(mission daemon stop)");
}

}  // namespace mission
