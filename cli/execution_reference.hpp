#pragma once
// An execution as a person names it on the command line: an id, a unique
// prefix of one, a name given with `mission run --name`, or @last.

#include <string>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// The full id `reference` names. A full id is returned as it is, without
// asking the daemon; anything else is resolved by execution.resolve, which
// throws not_found or ambiguous_target (with the candidates).
std::string resolve_execution(DaemonClient& client, const std::string& reference);

}  // namespace mission::cli
