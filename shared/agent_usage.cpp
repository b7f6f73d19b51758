#include "shared/agent_usage.hpp"

#include <algorithm>
#include <cmath>

#include "shared/json_member.hpp"
#include "shared/usage_limits.hpp"

namespace mission {

namespace {

bool type_is(const nlohmann::json& event, std::string_view type) {
  const nlohmann::json& value = json_member(event, "type");
  return value.is_string() && value.get_ref<const std::string&>() == type;
}

// A whole number of tokens from 0 to kMaxUsageTokens; anything else is no
// count (a float, a string, a negative, a figure no run reaches).
std::optional<std::int64_t> token_count(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    const std::uint64_t count = value.get<std::uint64_t>();
    if (count > static_cast<std::uint64_t>(limits::kMaxUsageTokens)) return std::nullopt;
    return static_cast<std::int64_t>(count);
  }
  if (value.is_number_integer()) {
    const std::int64_t count = value.get<std::int64_t>();
    if (count < 0 || count > limits::kMaxUsageTokens) return std::nullopt;
    return count;
  }
  return std::nullopt;
}

std::optional<double> dollars(const nlohmann::json& value) {
  if (!value.is_number()) return std::nullopt;
  const double amount = value.get<double>();
  if (!std::isfinite(amount) || amount < 0 || amount > limits::kMaxUsageCostUsd)
    return std::nullopt;
  return amount;
}

std::optional<UsageEvent> found(AgentUsage usage, bool cumulative) {
  if (usage.empty()) return std::nullopt;
  return UsageEvent{usage, cumulative};
}

// Claude Code's result: the whole run's usage, cached input apart.
std::optional<UsageEvent> claude_usage(const nlohmann::json& event) {
  if (!type_is(event, "result")) return std::nullopt;
  const nlohmann::json& usage = json_member(event, "usage");
  AgentUsage out;
  out.input_tokens = token_count(json_member(usage, "input_tokens"));
  out.output_tokens = token_count(json_member(usage, "output_tokens"));
  out.cache_read_tokens = token_count(json_member(usage, "cache_read_input_tokens"));
  out.cache_write_tokens = token_count(json_member(usage, "cache_creation_input_tokens"));
  out.cost_usd = dollars(json_member(event, "total_cost_usd"));
  return found(out, true);
}

// Codex's turn.completed: the thread's usage so far (its last token count),
// cached input inside input_tokens.
std::optional<UsageEvent> codex_usage(const nlohmann::json& event) {
  if (!type_is(event, "turn.completed")) return std::nullopt;
  const nlohmann::json& usage = json_member(event, "usage");
  AgentUsage out;
  out.input_tokens = token_count(json_member(usage, "input_tokens"));
  out.output_tokens = token_count(json_member(usage, "output_tokens"));
  out.cache_read_tokens = token_count(json_member(usage, "cached_input_tokens"));
  return found(out, true);
}

// OpenCode's step_finish: one model call's tokens and cost.
std::optional<UsageEvent> opencode_usage(const nlohmann::json& event) {
  if (!type_is(event, "step_finish")) return std::nullopt;
  const nlohmann::json& part = json_member(event, "part");
  const nlohmann::json& tokens = json_member(part, "tokens");
  AgentUsage out;
  out.input_tokens = token_count(json_member(tokens, "input"));
  out.output_tokens = token_count(json_member(tokens, "output"));
  out.cache_read_tokens = token_count(json_member(json_member(tokens, "cache"), "read"));
  out.cache_write_tokens = token_count(json_member(json_member(tokens, "cache"), "write"));
  out.cost_usd = dollars(json_member(part, "cost"));
  return found(out, false);
}

struct UsageFormat {
  std::string_view format;
  // A line without it holds no usage event and is not parsed: most lines
  // of a stream are messages and tool calls.
  std::string_view needle;
  std::optional<UsageEvent> (*read)(const nlohmann::json& event);
};

constexpr UsageFormat kFormats[] = {
    {"claude-stream-json", "\"result\"", claude_usage},
    {"codex-json", "\"turn.completed\"", codex_usage},
    {"opencode-json", "\"step_finish\"", opencode_usage},
};

const UsageFormat* find_format(std::string_view format) {
  for (const auto& known : kFormats) {
    if (known.format == format) return &known;
  }
  return nullptr;
}

void add(std::optional<std::int64_t>& total, std::optional<std::int64_t> step) {
  if (!step) return;
  const std::int64_t before = total.value_or(0);
  total = *step > limits::kMaxUsageTokens - before ? limits::kMaxUsageTokens : before + *step;
}

void add(std::optional<double>& total, std::optional<double> step) {
  if (!step) return;
  total = std::min(total.value_or(0) + *step, limits::kMaxUsageCostUsd);
}

}  // namespace

std::optional<UsageEvent> usage_of_event(std::string_view format, const nlohmann::json& event) {
  const UsageFormat* known = find_format(format);
  if (known == nullptr || !event.is_object()) return std::nullopt;
  return known->read(event);
}

std::optional<UsageEvent> usage_of_line(std::string_view format, std::string_view line) {
  const UsageFormat* known = find_format(format);
  if (known == nullptr || line.find(known->needle) == std::string_view::npos) return std::nullopt;
  const std::size_t start = line.find_first_not_of(" \t\r");
  if (start == std::string_view::npos || line[start] != '{') return std::nullopt;
  const nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
  if (event.is_discarded() || !event.is_object()) return std::nullopt;
  return known->read(event);
}

bool take_acp_usage_update(AgentUsage& total, const nlohmann::json& update) {
  const nlohmann::json& cost = json_member(update, "cost");
  const nlohmann::json& currency = json_member(cost, "currency");
  if (!currency.is_string() || currency.get_ref<const std::string&>() != "USD") return false;
  const std::optional<double> amount = dollars(json_member(cost, "amount"));
  if (!amount || total.cost_usd == amount) return false;
  total.cost_usd = amount;
  return true;
}

bool take_acp_turn_usage(AgentUsage& total, const nlohmann::json& usage) {
  const AgentUsage before = total;
  add(total.input_tokens, token_count(json_member(usage, "inputTokens")));
  add(total.output_tokens, token_count(json_member(usage, "outputTokens")));
  add(total.cache_read_tokens, token_count(json_member(usage, "cachedReadTokens")));
  add(total.cache_write_tokens, token_count(json_member(usage, "cachedWriteTokens")));
  return !(total == before);
}

bool StreamUsageReader::take_line(std::string_view line) {
  auto event = usage_of_line(format_, line);
  if (!event) return false;
  const AgentUsage before = total_;
  if (event->cumulative) {
    total_ = event->usage;
  } else {
    add(total_.input_tokens, event->usage.input_tokens);
    add(total_.output_tokens, event->usage.output_tokens);
    add(total_.cache_read_tokens, event->usage.cache_read_tokens);
    add(total_.cache_write_tokens, event->usage.cache_write_tokens);
    add(total_.cost_usd, event->usage.cost_usd);
  }
  return !(total_ == before);
}

bool StreamUsageReader::feed(std::string_view bytes) {
  bool changed = false;
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!skipping_) {
      if (partial_.size() + piece.size() > limits::kMaxUsageLineBytes) {
        skipping_ = true;
        partial_.clear();
        partial_.shrink_to_fit();
      } else if (newline != std::string_view::npos && partial_.empty()) {
        changed |= take_line(piece);  // the usual case: no copy
      } else {
        partial_.append(piece);
        if (newline != std::string_view::npos) {
          changed |= take_line(partial_);
          partial_.clear();
        }
      }
    }
    if (newline == std::string_view::npos) break;
    skipping_ = false;
    bytes.remove_prefix(newline + 1);
  }
  return changed;
}

bool StreamUsageReader::finish() {
  bool changed = false;
  if (!skipping_ && !partial_.empty()) changed = take_line(partial_);
  partial_.clear();
  skipping_ = false;
  return changed;
}

}  // namespace mission
