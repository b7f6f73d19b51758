#pragma once
// How people name an execution on the command line: its id, a unique
// prefix of it (as git takes abbreviated hashes), the name it was given
// (mission run --name), or @last.

#include <string>

#include "daemon/store/database.hpp"

namespace mission::daemon::execution {

// The word a reference uses for the execution created last.
inline constexpr std::string_view kLastExecutionReference = "@last";

struct ResolvedExecution {
  std::string id;
  // How the reference matched: "id", "last", "name" or "prefix".
  std::string matched_by;
};

// The one execution `reference` names. In this order: @last, an exact id,
// a name (the execution created last with it), then an id prefix of at
// least kMinExecutionIdPrefix characters after "ae-" (the "ae-" may be
// left out). Throws not_found when nothing matches and ambiguous_target,
// with the candidates, when a prefix matches several.
ResolvedExecution resolve_execution_reference(store::Database& db, const std::string& reference);

}  // namespace mission::daemon::execution
