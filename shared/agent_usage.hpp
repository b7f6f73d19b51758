#pragma once
// The tokens and cost an agent CLI states in its own streaming JSON (the
// formats of shared/agent_stream.hpp), read as the lines come: Claude
// Code's `result` event (usage and total_cost_usd), Codex's
// `turn.completed` (usage), OpenCode's `step_finish` (tokens and cost).
// The figures are the agent's, kept as it gave them: Claude Code counts
// cached input apart from input_tokens, Codex counts it inside.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace mission {

struct AgentUsage {
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<std::int64_t> cache_read_tokens;
  std::optional<std::int64_t> cache_write_tokens;
  std::optional<double> cost_usd;

  bool empty() const {
    return !input_tokens && !output_tokens && !cache_read_tokens && !cache_write_tokens &&
           !cost_usd;
  }
  bool operator==(const AgentUsage&) const = default;
};

// What one event says. A cumulative figure is the process's whole use so
// far (Claude Code's result, Codex's turn.completed) and replaces the one
// before; otherwise it is one step's (OpenCode) and adds to it.
struct UsageEvent {
  AgentUsage usage;
  bool cumulative = false;
};

// The usage event `event` of stream format `format` holds; nullopt for an
// event without one, a format not known, or figures that are not counts
// (a string, a negative or fractional count, past kMaxUsageTokens or
// kMaxUsageCostUsd: that field is left out).
std::optional<UsageEvent> usage_of_event(std::string_view format, const nlohmann::json& event);

// The same for one output line; nullopt as well when the line is no JSON
// object. Lines that cannot hold usage are skipped without being parsed.
std::optional<UsageEvent> usage_of_line(std::string_view format, std::string_view line);

// Over the Agent Client Protocol: a `usage_update` session update states
// the session's cumulative cost, which replaces the one before when it is
// in USD (its `used` and `size` are the context window, not use); the
// `usage` of a session/prompt result (a draft of the protocol: inputTokens,
// outputTokens, cachedReadTokens, cachedWriteTokens) is the turn's tokens,
// added to the turns' before. Each returns true when `total` changed.
bool take_acp_usage_update(AgentUsage& total, const nlohmann::json& update);
bool take_acp_turn_usage(AgentUsage& total, const nlohmann::json& usage);

// One execution's usage from its stdout, fed as the bytes arrive. Lines
// longer than kMaxUsageLineBytes are skipped.
class StreamUsageReader {
 public:
  explicit StreamUsageReader(std::string format) : format_(std::move(format)) {}

  // Reads the complete lines of `bytes`; true when the total changed.
  bool feed(std::string_view bytes);
  // Reads a last line that has no newline; true when the total changed.
  bool finish();

  const AgentUsage& total() const { return total_; }

 private:
  bool take_line(std::string_view line);

  std::string format_;
  std::string partial_;
  bool skipping_ = false;  // the current line grew past the bound
  AgentUsage total_;
};

}  // namespace mission
