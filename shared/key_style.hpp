#pragma once
// One record, two surfaces: MCP tools answer in the seeds' snake_case, the
// control API (and so `mission ... --json` and live events) in camelCase
// like every other control method (docs/adr/0009-tool-tables-and-vocabulary.md).
// Views write each key once, in snake_case, through `key()`; only the keys
// mission itself names are converted, never the keys inside a document an
// agent supplied (an outcome, metadata). Shared by tracking and planning.

#include <string>
#include <string_view>

namespace mission {

enum class KeyStyle { snake, camel };

// `snake_key` in `style`: "mission_id" stays, or becomes "missionId".
std::string key(KeyStyle style, std::string_view snake_key);

}  // namespace mission
