#pragma once
// Mission records kept in a repository as git notes (refs/notes/mission),
// so they travel with the code to a fresh clone in CI. One note per commit
// holds one record per line (JSON lines), one line per mission: exporting a
// mission again replaces its line and keeps the others.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mission::cli {

inline constexpr const char* kMissionNotesRef = "refs/notes/mission";

// The full id of the commit `revision` names in the repository at `dir`.
std::string resolve_commit(const std::string& dir, const std::string& revision);

// Adds or replaces `record` (shared/mission_record.hpp) in the note on `commit`.
void write_record_note(const std::string& dir, const std::string& commit,
                       const nlohmann::json& record);

struct NotedRecords {
  std::vector<nlohmann::json> records;  // one per mission, from its newest commit
  std::size_t commits_with_notes = 0;
};

// Every mission record in the notes on the commits of `range` (a git
// revision range such as origin/main..HEAD); for a mission noted on several
// commits, the one on the newest commit.
NotedRecords read_record_notes(const std::string& dir, const std::string& range);

// One record (a JSON object) or several (JSON lines), as a file holds them.
std::vector<nlohmann::json> parse_records(const std::string& text, const std::string& source);

}  // namespace mission::cli
