#pragma once
// A text as a TOML basic string: quotes, backslashes and control characters
// escaped. For what mission writes as TOML (Codex's configuration, a plan
// file), so that no text, an agent's included, can end the string early.

#include <string>
#include <string_view>

namespace mission {

std::string toml_basic_string(std::string_view text);

}  // namespace mission
