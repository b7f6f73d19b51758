// An agent's stream read for its usage, any bytes split anywhere: the same
// total as in one piece, every figure within its bound, never negative.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shared/agent_usage.hpp"
#include "shared/usage_limits.hpp"

namespace {

constexpr std::string_view kFormats[] = {"claude-stream-json", "codex-json", "opencode-json",
                                         "text"};

bool within_bounds(const mission::AgentUsage& usage) {
  for (const auto& count : {usage.input_tokens, usage.output_tokens, usage.cache_read_tokens,
                            usage.cache_write_tokens}) {
    if (count && (*count < 0 || *count > mission::limits::kMaxUsageTokens)) return false;
  }
  return !usage.cost_usd ||
         (*usage.cost_usd >= 0 && *usage.cost_usd <= mission::limits::kMaxUsageCostUsd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view format = kFormats[data[0] % std::size(kFormats)];
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  mission::StreamUsageReader whole{std::string(format)};
  whole.feed(bytes);
  whole.finish();
  mission::StreamUsageReader pieces{std::string(format)};
  const std::size_t step = 1 + data[0] / std::size(kFormats) % 7;
  for (std::size_t at = 0; at < bytes.size(); at += step) pieces.feed(bytes.substr(at, step));
  pieces.finish();
  if (!(whole.total() == pieces.total())) __builtin_trap();
  if (!within_bounds(whole.total())) __builtin_trap();
  return 0;
}
