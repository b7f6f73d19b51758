#pragma once
// What `mission report` shows of a mission or workflow, read from the
// control API: one assembly for every surface that shows a report (the
// CLI's Markdown and JSON, the board's report panel), so they cannot
// disagree. The caller supplies how a control method is called (a socket
// for the CLI, the dispatcher for the board).

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mission {

// Calls control method `method` with `params`: its result, or a thrown
// MissionError with the method's error.
using ControlCall =
    std::function<nlohmann::json(std::string_view method, const nlohmann::json& params)>;

// Every item under `key` of paged `method` called with `params` (plus
// after), oldest first, until a page says no `more`.
nlohmann::json fetch_all_pages(const ControlCall& call, std::string_view method,
                               nlohmann::json params, std::string_view key);

// A workflow's last run (workflow.runReport) with all its tasks, page after
// page, pinned to the run of the first page; null when it was never run.
nlohmann::json fetch_last_run_report(const ControlCall& call, const std::string& workflow_id);

// The report of mission or workflow `id` (an id, not a name): mission.get
// with its tasks and its decisions, issues and milestones; for a workflow,
// its last run under "run" (absent when it never ran). The files each run
// task changed are not here: they are read from git by the CLI.
nlohmann::json gather_report(const ControlCall& call, const std::string& id);

}  // namespace mission
