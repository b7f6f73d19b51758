#pragma once
// A permission prompt read from an interactive agent's screen: the menu a
// CLI draws before it runs a tool ("Do you want to proceed? 1. Yes ...
// 4. No"), found by a pattern per adapter in one table. Nothing here is
// reported by the agent: it is what its screen shows, so mission says it
// was detected, and reads it again before typing an answer into it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::terminal {

struct PermissionPrompt {
  std::string question;              // cut to kMaxPromptQuestionBytes
  std::vector<std::string> options;  // in order, each cut to kMaxPromptOptionBytes
  std::size_t selected = 0;          // the option under the menu's cursor, 0-based

  bool operator==(const PermissionPrompt&) const = default;
};

// Whether `adapter` draws menus mission can read (a pattern in the table).
bool reads_permission_prompts(std::string_view adapter);

// The prompt on `screen` (Screen::text(): rows joined by "\n") as
// `adapter` draws it, or nullopt. The menu must end the screen, with its
// question, numbered options (one under the cursor) and the adapter's
// footer: the same words in the agent's transcript (a code block it
// printed) are above its input box and do not count. One pass over the
// text.
std::optional<PermissionPrompt> find_permission_prompt(std::string_view adapter,
                                                       std::string_view screen);

// The keys that pick option `choice` (1-based) of a prompt drawn by
// `adapter`.
std::string keys_for_choice(std::string_view adapter, std::size_t choice);

}  // namespace mission::daemon::terminal
