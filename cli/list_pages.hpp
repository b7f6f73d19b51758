#pragma once
// Reads a whole list from a paged control-API method (see the daemon's
// rpc/paging.hpp): asks for `after` pages, oldest first, until `more` is
// false, and joins them.

#include <nlohmann/json.hpp>
#include <string_view>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// Every item under `key` of `method` called with `params` (plus after).
nlohmann::json fetch_all(DaemonClient& client, std::string_view method, nlohmann::json params,
                         std::string_view key);

}  // namespace mission::cli
