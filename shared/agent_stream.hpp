#pragma once
// The streaming JSON that agent CLIs print in their headless modes (one
// JSON object a line: Claude Code's stream-json, `codex exec --json`,
// `opencode run --format json`), read as the steps a person follows:
// messages, tool calls with their arguments, results, errors. One table of
// decoders, one per format; the execution names its format, `mission run`
// and `mission exec logs` render with it unless --raw.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mission {

struct StreamStep {
  enum class Kind {
    message,      // the assistant's text
    thinking,     // its reasoning, when the format shows it
    tool_call,    // a tool and its arguments
    tool_result,  // what a tool gave back
    warning,      // a notice the agent goes on after
    error,
    done,  // the end of a run, with its summary
  };
  Kind kind;
  std::string text;  // as the agent wrote it: neutralised only when rendered
};

struct StreamDecoder {
  std::string_view format;  // the execution's outputFormat
  // The steps one event holds; none for an event a person need not see
  // (a turn started, token counts).
  std::vector<StreamStep> (*decode)(const nlohmann::json& event);
};

std::span<const StreamDecoder> stream_decoders();

// The decoder of `format`; nullptr for plain text or a format not known.
const StreamDecoder* find_stream_decoder(std::string_view format);

// The steps of one output line; nullopt when the line is no JSON object
// (it is then printed as it is).
std::optional<std::vector<StreamStep>> decode_stream_line(const StreamDecoder& decoder,
                                                          std::string_view line);

// The lines that show `step` on a terminal `columns` wide, every agent
// string neutralised: a message keeps its lines (each wrapped), a tool
// call, result or error is one line cut by display width.
std::vector<std::string> render_stream_step(const StreamStep& step, std::size_t columns);

}  // namespace mission
