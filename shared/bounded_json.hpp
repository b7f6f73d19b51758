#pragma once
// Parsing JSON that comes from outside the process (the sockets, agents'
// markers, the database) without letting its nesting exhaust the stack:
// the depth is measured by a scan without recursion first, and text nested
// deeper than limits::kMaxJsonDepth never reaches the recursive parser.
// Also: making untrusted bytes safe to put in a JSON string.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "shared/error_code.hpp"

namespace mission {

// The deepest nesting of arrays and objects in `text` (0 for a scalar),
// counting no further than `stop_after` + 1. Brackets inside strings are
// skipped, escapes honoured. Does not check that `text` is JSON.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after);

// Whether `text` nests deeper than limits::kMaxJsonDepth.
bool json_too_deep(std::string_view text);

// The error for such text: invalid_request, with the limit and a hint.
MissionError json_too_deep_error(ErrorCode code = ErrorCode::invalid_request);

// `text` parsed, or a discarded value when it is not JSON or nests too
// deeply. Never throws except std::bad_alloc.
nlohmann::json parse_json_or_discarded(std::string_view text);

// `text` parsed; throws MissionError (json_too_deep_error, or parse_error
// naming `what`) otherwise. For JSON the daemon itself stored.
nlohmann::json parse_stored_json(std::string_view text, std::string_view what);

// `bytes` cut to at most `max_bytes` without splitting a UTF-8 character,
// with every invalid byte replaced by U+FFFD: safe to put in a JSON string.
std::string valid_utf8_excerpt(std::string_view bytes, std::size_t max_bytes);

}  // namespace mission
