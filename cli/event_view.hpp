#pragma once
// One line per daemon event, for `mission watch` and `mission exec show
// --follow`: time, execution, and what happened, readable by a person.

#include <nlohmann/json.hpp>
#include <string>

namespace mission::cli {

// "10:04:05  ae-1234567890  running  progress: parser rewritten"; empty for
// an event with nothing to show a person, which prints no line.
std::string event_line(const nlohmann::json& event);

// An observation as a person reads it: "asks: Keep it? [yes/no]",
// "progress: tests pass", "rejected marker: ...".
std::string observation_text(const nlohmann::json& observation);

// Where a permission request came from, in parentheses: read off the
// agent's screen (`detected`), or reported by the agent over ACP.
std::string permission_origin(bool detected);

// A message as a person reads it: "answer from alice to ae-...: yes".
std::string message_text(const nlohmann::json& message);

// Whether `event` says its execution reached a final state.
bool event_is_final(const nlohmann::json& event);

}  // namespace mission::cli
