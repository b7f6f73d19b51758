#pragma once
// How a person reads a live conflict (workspace.liveConflicts, inbox.list's
// liveConflicts): "conflict: tasks A and B both change F", in `mission
// inbox` and `mission workspaces conflicts` alike. Every field is agents'
// or plans' text: neutralised here.

#include <nlohmann/json.hpp>
#include <string>

namespace mission::cli {

// "conflict: tasks A (ID) and B (ID) both change F", or for the
// integration branch "conflict: task A (ID) and the integration branch B
// both change F".
std::string live_conflict_line(const nlohmann::json& conflict);

// "since HH:MM:SS; branches X and Y; the agents were told": the lines under it.
std::string live_conflict_detail(const nlohmann::json& conflict);

}  // namespace mission::cli
