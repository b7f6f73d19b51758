#include "shared/agent_stream.hpp"

#include <algorithm>
#include <cstdio>

#include "shared/display_text.hpp"
#include "shared/json_member.hpp"

namespace mission {

namespace {

using Kind = StreamStep::Kind;

std::string string_at(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return {};
  return found->get<std::string>();
}

// A tool's arguments on one line: the one that says what the call does
// (the command, the file, the pattern) when there is one, else all of them.
std::string arguments_line(const nlohmann::json& input) {
  if (input.is_string()) return input.get<std::string>();
  if (!input.is_object() || input.empty()) return input.is_null() ? std::string() : input.dump();
  static constexpr std::string_view kTelling[] = {"command", "file_path", "filePath",
                                                  "path",    "pattern",   "query",
                                                  "url",     "prompt",    "description"};
  for (std::string_view key : kTelling) {
    std::string value = string_at(input, key);
    if (!value.empty()) return value;
  }
  return input.dump();
}

std::string call_text(std::string_view tool, const nlohmann::json& input) {
  return std::string(tool) + "(" + arguments_line(input) + ")";
}

// A tool result's text: a string, or the text blocks of a content array.
std::string result_text(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) return content.is_null() ? std::string() : content.dump();
  std::string out;
  for (const auto& block : content) {
    std::string text = string_at(block, "text");
    if (text.empty()) continue;
    if (!out.empty()) out += "\n";
    out += text;
  }
  return out;
}

// Claude Code, `claude -p --output-format stream-json --verbose`: system,
// assistant and user messages whose content blocks are text, thinking,
// tool_use and tool_result, then one result.
std::vector<StreamStep> decode_claude(const nlohmann::json& event) {
  std::vector<StreamStep> steps;
  const std::string type = string_at(event, "type");
  if (type == "assistant" || type == "user") {
    const nlohmann::json& content = json_member(json_member(event, "message"), "content");
    if (content.is_string() && type == "assistant")
      steps.push_back({Kind::message, content.get<std::string>()});
    if (!content.is_array()) return steps;
    for (const auto& block : content) {
      const std::string block_type = string_at(block, "type");
      if (block_type == "text") {
        steps.push_back({Kind::message, string_at(block, "text")});
      } else if (block_type == "thinking") {
        steps.push_back({Kind::thinking, string_at(block, "thinking")});
      } else if (block_type == "tool_use") {
        steps.push_back(
            {Kind::tool_call, call_text(string_at(block, "name"), json_member(block, "input"))});
      } else if (block_type == "tool_result") {
        const bool failed = json_member(block, "is_error").is_boolean() &&
                            json_member(block, "is_error").get<bool>();
        steps.push_back(
            {failed ? Kind::error : Kind::tool_result, result_text(json_member(block, "content"))});
      }
    }
  } else if (type == "result") {
    const bool failed =
        json_member(event, "is_error").is_boolean() && json_member(event, "is_error").get<bool>();
    std::string summary = string_at(event, "subtype");
    if (const auto& turns = json_member(event, "num_turns"); turns.is_number_integer()) {
      summary += ", " + std::to_string(turns.get<long long>()) + " turns";
    }
    if (const auto& ms = json_member(event, "duration_ms"); ms.is_number()) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, ", %.1f s", ms.get<double>() / 1000.0);
      summary += seconds;
    }
    if (const auto& cost = json_member(event, "total_cost_usd"); cost.is_number()) {
      char dollars[32];
      std::snprintf(dollars, sizeof dollars, ", $%.4f", cost.get<double>());
      summary += dollars;
    }
    if (failed) {
      std::string why = string_at(event, "result");
      steps.push_back({Kind::error, why.empty() ? summary : why});
    }
    steps.push_back({Kind::done, summary});
  }
  return steps;
}

// The one shell word `text` spells ('single', "double" with its
// backslash escapes, bare characters), nullopt when it is more than one
// word or its quotes do not close.
std::optional<std::string> one_shell_word(std::string_view text) {
  std::string word;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      word.append(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (c == '"') {
      ++i;
      for (;; ++i) {
        if (i >= text.size()) return std::nullopt;
        if (text[i] == '"') break;
        const bool escape = text[i] == '\\' && i + 1 < text.size() &&
                            std::string_view("\\\"$`").find(text[i + 1]) != std::string_view::npos;
        if (escape) ++i;
        word.push_back(text[i]);
      }
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      return std::nullopt;
    } else if (c == '\\' && i + 1 < text.size()) {
      word.push_back(text[i + 1]);
      i += 2;
    } else {
      word.push_back(c);
      ++i;
    }
  }
  return word;
}

// A command as a person reads it: Codex runs each one as `/bin/bash -lc
// "SCRIPT"` (quoted for the shell), where the script is what the model
// wrote.
std::string shell_script(std::string_view command) {
  static constexpr std::string_view kWrappers[] = {
      "/bin/bash -lc ", "bash -lc ", "/usr/bin/bash -lc ", "/bin/zsh -lc ", "zsh -lc ",
      "/bin/sh -c ",    "sh -c "};
  for (std::string_view wrapper : kWrappers) {
    if (!command.starts_with(wrapper)) continue;
    auto script = one_shell_word(command.substr(wrapper.size()));
    if (script && !script->empty()) return *script;
  }
  return std::string(command);
}

// Codex, `codex exec --json`: thread and turn events around items
// (agent_message, reasoning, command_execution, file_change,
// mcp_tool_call, web_search, error) that start and complete.
std::vector<StreamStep> decode_codex(const nlohmann::json& event) {
  std::vector<StreamStep> steps;
  const std::string type = string_at(event, "type");
  const nlohmann::json& item = json_member(event, "item");
  const std::string item_type = string_at(item, "type");
  if (type == "item.started") {
    if (item_type == "command_execution") {
      steps.push_back({Kind::tool_call, "shell(" + shell_script(string_at(item, "command")) + ")"});
    } else if (item_type == "mcp_tool_call") {
      steps.push_back({Kind::tool_call,
                       string_at(item, "server") + "." +
                           call_text(string_at(item, "tool"), json_member(item, "arguments"))});
    }
  } else if (type == "item.completed") {
    if (item_type == "agent_message") {
      steps.push_back({Kind::message, string_at(item, "text")});
    } else if (item_type == "reasoning") {
      steps.push_back({Kind::thinking, string_at(item, "text")});
    } else if (item_type == "command_execution") {
      const nlohmann::json& code = json_member(item, "exit_code");
      const bool failed = code.is_number_integer() && code.get<int>() != 0;
      std::string text = code.is_number_integer() ? "exit " + std::to_string(code.get<int>())
                                                  : std::string("ended");
      std::string output = string_at(item, "aggregated_output");
      if (!output.empty()) text += ": " + output;
      steps.push_back({failed ? Kind::error : Kind::tool_result, text});
    } else if (item_type == "mcp_tool_call") {
      const nlohmann::json& error = json_member(item, "error");
      if (!error.is_null()) {
        steps.push_back(
            {Kind::error, error.is_object() ? string_at(error, "message") : error.dump()});
      } else {
        steps.push_back(
            {Kind::tool_result, result_text(json_member(json_member(item, "result"), "content"))});
      }
    } else if (item_type == "file_change") {
      std::string changed;
      for (const auto& change : json_member(item, "changes")) {
        if (!changed.empty()) changed += ", ";
        changed += string_at(change, "kind") + " " + string_at(change, "path");
      }
      steps.push_back({Kind::tool_call, "apply_patch(" + changed + ")"});
    } else if (item_type == "web_search") {
      steps.push_back({Kind::tool_call, "web_search(" + string_at(item, "query") + ")"});
    } else if (item_type == "error") {
      // An error item is a notice the turn goes on after (a feature flag,
      // unknown model metadata); what ends a turn is turn.failed or error.
      steps.push_back({Kind::warning, string_at(item, "message")});
    }
  } else if (type == "turn.completed") {
    const nlohmann::json& usage = json_member(event, "usage");
    std::string summary = "turn completed";
    if (usage.is_object()) {
      summary += ", tokens in " + json_member(usage, "input_tokens").dump() + ", out " +
                 json_member(usage, "output_tokens").dump();
    }
    steps.push_back({Kind::done, summary});
  } else if (type == "turn.failed") {
    steps.push_back({Kind::error, string_at(json_member(event, "error"), "message")});
  } else if (type == "error") {
    steps.push_back({Kind::error, string_at(event, "message")});
  }
  return steps;
}

// OpenCode, `opencode run --format json`: step_start, text, reasoning,
// tool_use (one per finished call, its input and output in part.state),
// step_finish and error events.
std::vector<StreamStep> decode_opencode(const nlohmann::json& event) {
  std::vector<StreamStep> steps;
  const std::string type = string_at(event, "type");
  const nlohmann::json& part = json_member(event, "part");
  if (type == "text") {
    steps.push_back({Kind::message, string_at(part, "text")});
  } else if (type == "reasoning") {
    steps.push_back({Kind::thinking, string_at(part, "text")});
  } else if (type == "tool_use") {
    const nlohmann::json& state = json_member(part, "state");
    steps.push_back(
        {Kind::tool_call, call_text(string_at(part, "tool"), json_member(state, "input"))});
    const std::string status = string_at(state, "status");
    if (status == "completed") {
      steps.push_back({Kind::tool_result, result_text(json_member(state, "output"))});
    } else if (status == "error") {
      steps.push_back({Kind::error, result_text(json_member(state, "error"))});
    }
  } else if (type == "step_finish") {
    const std::string reason = string_at(part, "reason");
    if (!reason.empty() && reason != "tool-calls") steps.push_back({Kind::done, reason});
  } else if (type == "error") {
    const nlohmann::json& error = json_member(event, "error");
    std::string text = string_at(json_member(error, "data"), "message");
    if (text.empty()) text = string_at(error, "name");
    if (text.empty()) text = error.dump();
    steps.push_back({Kind::error, text});
  }
  return steps;
}

// The Agent Client Protocol as the daemon logs it (daemon/execution/
// acp_session.hpp): session/update notifications (message chunks joined,
// thoughts, tool calls and their updates, plans), permission requests, and
// the prompt's answer with its stop reason.
std::vector<StreamStep> decode_acp(const nlohmann::json& event) {
  std::vector<StreamStep> steps;
  const std::string method = string_at(event, "method");
  const nlohmann::json& params = json_member(event, "params");
  if (method == "session/update") {
    const nlohmann::json& update = json_member(params, "update");
    const std::string kind = string_at(update, "sessionUpdate");
    if (kind == "agent_message_chunk") {
      steps.push_back({Kind::message, string_at(json_member(update, "content"), "text")});
    } else if (kind == "agent_thought_chunk") {
      steps.push_back({Kind::thinking, string_at(json_member(update, "content"), "text")});
    } else if (kind == "tool_call") {
      std::string text = string_at(update, "title");
      const std::string tool_kind = string_at(update, "kind");
      if (!tool_kind.empty()) text = tool_kind + "(" + text + ")";
      steps.push_back({Kind::tool_call, text});
    } else if (kind == "tool_call_update") {
      const std::string status = string_at(update, "status");
      std::string text = string_at(update, "title");
      if (text.empty()) text = string_at(update, "toolCallId");
      if (status == "completed") steps.push_back({Kind::tool_result, text + ": completed"});
      if (status == "failed") steps.push_back({Kind::error, text + ": failed"});
    } else if (kind == "plan") {
      const nlohmann::json& entries = json_member(update, "entries");
      std::string text = "plan:";
      if (entries.is_array()) {
        for (const auto& entry : entries) {
          text += "\n[" + string_at(entry, "status") + "] " + string_at(entry, "content");
        }
      }
      steps.push_back({Kind::message, text});
    }
  } else if (method == "session/request_permission") {
    steps.push_back(
        {Kind::warning, "asks permission: " + string_at(json_member(params, "toolCall"), "title")});
  } else if (method.empty()) {
    const std::string stop = string_at(json_member(event, "result"), "stopReason");
    if (!stop.empty()) steps.push_back({Kind::done, stop});
    const nlohmann::json& error = json_member(event, "error");
    if (error.is_object()) steps.push_back({Kind::error, string_at(error, "message")});
  }
  return steps;
}

constexpr StreamDecoder kDecoders[] = {
    {"acp", decode_acp},
    {"claude-stream-json", decode_claude},
    {"codex-json", decode_codex},
    {"opencode-json", decode_opencode},
};

// The text's first line that holds anything, for a one-line step.
std::string first_line(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      std::size_t more =
          std::count(text.begin() + static_cast<std::ptrdiff_t>(end), text.end(), '\n');
      std::string out(line);
      if (more > 0 && end < text.size() &&
          text.find_first_not_of(" \t\r\n", end) != std::string_view::npos) {
        out += " (+" + std::to_string(more) + " lines)";
      }
      return out;
    }
    start = end + 1;
  }
  return {};
}

std::string one_line(std::string_view marker, std::string_view text, std::size_t columns) {
  const std::string line = std::string(marker) + text::neutralised(first_line(text));
  return text::elide_end(line, std::max<std::size_t>(columns, 10));
}

}  // namespace

std::span<const StreamDecoder> stream_decoders() {
  return kDecoders;
}

const StreamDecoder* find_stream_decoder(std::string_view format) {
  for (const auto& decoder : kDecoders) {
    if (decoder.format == format) return &decoder;
  }
  return nullptr;
}

std::optional<std::vector<StreamStep>> decode_stream_line(const StreamDecoder& decoder,
                                                          std::string_view line) {
  const std::size_t start = line.find_first_not_of(" \t\r");
  if (start == std::string_view::npos || line[start] != '{') return std::nullopt;
  nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
  if (event.is_discarded() || !event.is_object()) return std::nullopt;
  return decoder.decode(event);
}

std::vector<std::string> render_stream_step(const StreamStep& step, std::size_t columns) {
  switch (step.kind) {
    case Kind::message: {
      std::vector<std::string> lines;
      const std::string text = text::neutralised(step.text, text::Newlines::keep);
      const std::size_t width = columns > 12 ? columns - 2 : 10;
      for (const auto& line : text::wrap(text, width)) {
        lines.push_back((lines.empty() ? "● " : "  ") + line);
      }
      return lines;
    }
    case Kind::thinking:
      return {one_line("∴ ", step.text, columns)};
    case Kind::tool_call:
      return {one_line("→ ", step.text, columns)};
    case Kind::tool_result:
      return {one_line("  ← ", step.text, columns)};
    case Kind::warning:
      return {one_line("! ", step.text, columns)};
    case Kind::error:
      return {one_line("✗ ", step.text, columns)};
    case Kind::done:
      return {one_line("■ ", step.text, columns)};
  }
  return {};
}

}  // namespace mission
