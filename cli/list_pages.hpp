#pragma once
// Reads a whole list from a paged control-API method (see the daemon's
// rpc/paging.hpp): asks for `after` pages, oldest first, until `more` is
// false, and joins them; or a whole document whose lists come in pages.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "cli/daemon_client.hpp"
#include "shared/report_source.hpp"

namespace mission::cli {

// Every item under `key` of `method` called with `params` (plus after).
nlohmann::json fetch_all(DaemonClient& client, std::string_view method, nlohmann::json params,
                         std::string_view key);

// A document too large for one reply (mission.export, workflow.graph),
// read whole: `method` is called with `after` "" and then each page's
// afterCursor while `more`, and each page's `lists` are appended, in order,
// to the first page's, which is returned without the paging fields.
nlohmann::json fetch_document(DaemonClient& client, std::string_view method, nlohmann::json params,
                              std::initializer_list<const char*> lists);

// A workflow's last run (workflow.runReport) with all its tasks, page after
// page; null when it was never run.
nlohmann::json fetch_last_run(DaemonClient& client, const std::string& workflow_id);

// `client`'s calls as shared/report_source.hpp takes them.
ControlCall control_call(DaemonClient& client);

}  // namespace mission::cli
