#pragma once
// How people name a workflow or a task on the command line, as they name
// executions (daemon/execution/execution_reference.hpp): its id, a unique
// prefix of it, its name, or (a workflow) @last. A word that names nothing
// gets the closest name as a did-you-mean.

#include <cstddef>
#include <optional>
#include <string>

#include "daemon/store/database.hpp"

namespace mission::daemon::planning {

// Workflows (or tasks) created last whose names and ids a reference that
// names nothing is compared with for a did-you-mean: older ones are not
// what a person is typing, and the comparison stays cheap.
inline constexpr std::size_t kMaxDidYouMeanRecords = 200;
// Most edits between a mistyped reference and the name or id it suggests.
inline constexpr std::size_t kMaxDidYouMeanEdits = 2;

// The word a reference uses for the workflow created or run last.
inline constexpr std::string_view kLastWorkflowReference = "@last";

struct ResolvedRecord {
  std::string id;
  // How the reference matched: "id", "last", "name" or "prefix".
  std::string matched_by;
  // A task's workflow (empty for a workflow).
  std::string workflow_id;
};

// The one planned workflow `reference` names, or with `missions_too` the one
// mission record of any kind (mission report and tasks take both). In this
// order: @last (the one created or run last), an exact id, a name (the one
// created last with it), then an id prefix of at least kMinExecutionIdPrefix
// characters after "wf-" (which may be left out; "ms-" too for missions).
// Throws not_found, with the closest name when one is near, and
// ambiguous_target, with the candidates, when a prefix matches several.
ResolvedRecord resolve_workflow_reference(store::Database& db, const std::string& reference,
                                          bool missions_too);

// The one task of a planned workflow `reference` names: an exact id, a name
// (within `workflow_id` when given, else across every workflow, where it
// must be unique), or a prefix of at least kMinExecutionIdPrefix characters
// after "tk-" (which may be left out). Throws as resolve_workflow_reference.
ResolvedRecord resolve_task_reference(store::Database& db, const std::string& reference,
                                      const std::optional<std::string>& workflow_id);

}  // namespace mission::daemon::planning
