// A permission menu read from any screen text: never a crash, and what is
// found is bounded (question and options cut to their limits, the cursor
// on one of the options, at least one option).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "daemon/terminal/permission_prompt.hpp"
#include "shared/terminal_limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view screen(reinterpret_cast<const char*>(data), size);
  auto prompt = mission::daemon::terminal::find_permission_prompt("claude-code", screen);
  if (!prompt) return 0;
  if (prompt->options.empty() || prompt->selected >= prompt->options.size()) __builtin_trap();
  if (prompt->question.size() > mission::limits::kMaxPromptQuestionBytes) __builtin_trap();
  for (const auto& option : prompt->options) {
    if (option.size() > mission::limits::kMaxPromptOptionBytes) __builtin_trap();
  }
  return 0;
}
