#include "daemon/planning/record_reference.hpp"

#include "daemon/store/reference_repository.hpp"
#include "shared/edit_distance.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::planning {
namespace {

constexpr std::string_view kWorkflowIdPrefix = "wf-";
constexpr std::string_view kMissionIdPrefix = "ms-";
constexpr std::string_view kTaskIdPrefix = "tk-";

bool starts_with(const std::string& word, std::string_view prefix) {
  return word.rfind(prefix, 0) == 0;
}

// The name or id among `rows` nearest `reference`, when it is a few edits
// away: what a person most likely meant to type.
std::optional<std::string> nearest(const std::string& reference,
                                   const std::vector<store::ReferencedRow>& rows) {
  std::optional<std::string> best;
  std::size_t best_distance = kMaxDidYouMeanEdits + 1;
  for (const auto& row : rows) {
    for (const std::string* word : {&row.name, &row.id}) {
      const std::size_t distance = edit_distance(reference, *word);
      // A word shorter than its distance is not a typo of it: "x" is two
      // edits from "ab".
      if (distance < best_distance && distance < reference.size()) {
        best = *word;
        best_distance = distance;
      }
    }
  }
  return best;
}

// "tk-1 (lint), tk-2 (in wf-9)": a name, or where a task of the name is.
std::string listed(const std::string& reference, const std::vector<store::ReferencedRow>& rows,
                   bool more) {
  std::string out;
  for (const auto& row : rows) {
    out += (out.empty() ? "" : ", ") + row.id + " (" +
           (row.name == reference ? "in " + row.mission_id : row.name) + ")";
  }
  return out + (more ? ", ..." : "");
}

MissionError ambiguous(const std::string& reference, const char* what,
                       std::vector<store::ReferencedRow> rows) {
  const bool more = rows.size() > limits::kMaxReferenceCandidates;
  if (more) rows.pop_back();
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& row : rows) candidates.push_back(row.id);
  return MissionError(
      ErrorCode::ambiguous_target,
      "'" + reference + "' names several " + what + ": " + listed(reference, rows, more),
      "give one of these ids, or more characters of it",
      {{"reference", reference}, {"candidates", candidates}});
}

}  // namespace

ResolvedRecord resolve_workflow_reference(store::Database& db, const std::string& reference,
                                          bool missions_too) {
  store::ReferenceRepository records(db);
  const std::string what = missions_too ? "mission or workflow" : "workflow";
  const std::string listing = missions_too ? "mission missions list shows missions and workflows"
                                           : "mission workflows list shows the workflows";
  auto no_match = [&](const std::string& why) {
    return MissionError(ErrorCode::not_found, "no " + what + " matches '" + reference + "'" + why,
                        listing + "; give an id, a prefix of at least " +
                            std::to_string(limits::kMinExecutionIdPrefix) + " characters after " +
                            std::string(kWorkflowIdPrefix) + ", a name, or @last",
                        {{"reference", reference}});
  };
  if (reference == kLastWorkflowReference) {
    if (auto row = records.last_record(missions_too)) return {row->id, "last", ""};
    throw no_match(": none has been created yet");
  }
  if (auto row = records.record(reference, missions_too)) return {row->id, "id", ""};
  if (auto row = records.latest_named_record(reference, missions_too)) return {row->id, "name", ""};

  std::vector<store::ReferencedRow> matches;
  const std::size_t wanted = limits::kMaxReferenceCandidates + 1;
  auto gather = [&](std::string_view id_prefix) {
    const std::string prefix =
        starts_with(reference, id_prefix) ? reference : std::string(id_prefix) + reference;
    if (prefix.size() < id_prefix.size() + limits::kMinExecutionIdPrefix) return;
    for (auto& row : records.records_with_prefix(prefix, missions_too, wanted)) {
      if (matches.size() < wanted) matches.push_back(std::move(row));
    }
  };
  const bool has_prefix =
      starts_with(reference, kWorkflowIdPrefix) || starts_with(reference, kMissionIdPrefix);
  if (!has_prefix || starts_with(reference, kWorkflowIdPrefix)) gather(kWorkflowIdPrefix);
  if (missions_too && (!has_prefix || starts_with(reference, kMissionIdPrefix)))
    gather(kMissionIdPrefix);
  if (matches.size() == 1) return {matches.front().id, "prefix", ""};
  if (matches.size() > 1)
    throw ambiguous(reference, missions_too ? "records" : "workflows", matches);

  if (auto guess =
          nearest(reference, records.recent_records(missions_too, kMaxDidYouMeanRecords))) {
    throw no_match("; did you mean '" + *guess + "'?");
  }
  throw no_match("");
}

ResolvedRecord resolve_task_reference(store::Database& db, const std::string& reference,
                                      const std::optional<std::string>& workflow_id) {
  store::ReferenceRepository records(db);
  const std::string where = workflow_id ? " in " + *workflow_id : "";
  auto no_match = [&](const std::string& why) {
    return MissionError(
        ErrorCode::not_found, "no task" + where + " matches '" + reference + "'" + why,
        std::string(workflow_id ? "mission plan " + *workflow_id
                                : "mission workflows status WORKFLOW") +
            " shows its tasks; give a task's name, its id, or a prefix of at least " +
            std::to_string(limits::kMinExecutionIdPrefix) + " characters after " +
            std::string(kTaskIdPrefix),
        {{"reference", reference}});
  };
  if (auto row = records.task(reference)) {
    if (!workflow_id || row->mission_id == *workflow_id) return {row->id, "id", row->mission_id};
    throw no_match(": that task is in " + row->mission_id);
  }
  const std::size_t wanted = limits::kMaxReferenceCandidates + 1;
  auto named = records.tasks_named(reference, workflow_id, wanted);
  if (named.size() == 1) return {named.front().id, "name", named.front().mission_id};
  if (named.size() > 1) throw ambiguous(reference, "tasks", named);

  const std::string prefix =
      starts_with(reference, kTaskIdPrefix) ? reference : std::string(kTaskIdPrefix) + reference;
  if (prefix.size() >= kTaskIdPrefix.size() + limits::kMinExecutionIdPrefix) {
    auto matches = records.tasks_with_prefix(prefix, workflow_id, wanted);
    if (matches.size() == 1) return {matches.front().id, "prefix", matches.front().mission_id};
    if (matches.size() > 1) throw ambiguous(reference, "tasks", matches);
  }
  if (auto guess = nearest(reference, records.recent_tasks(workflow_id, kMaxDidYouMeanRecords))) {
    throw no_match("; did you mean '" + *guess + "'?");
  }
  throw no_match("");
}

}  // namespace mission::daemon::planning
