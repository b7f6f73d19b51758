#include "cli/mission_notes.hpp"

#include <map>
#include <set>
#include <sstream>

#include "cli/git_command.hpp"
#include "shared/bounded_json.hpp"
#include "shared/error_code.hpp"
#include "shared/mission_record.hpp"

namespace mission::cli {
namespace {

const std::string kNotesOption = std::string("--ref=") + kMissionNotesRef;

std::string mission_of(const nlohmann::json& record) {
  return record.at("mission").at("missionId").get<std::string>();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

// Reads `git cat-file --batch` output: "<id> blob <size>\n<content>\n" per object.
std::vector<std::string> batch_contents(const std::string& output) {
  std::vector<std::string> contents;
  std::size_t at = 0;
  while (at < output.size()) {
    const std::size_t header_end = output.find('\n', at);
    if (header_end == std::string::npos) break;
    const std::string header = output.substr(at, header_end - at);
    const std::size_t size_at = header.rfind(' ');
    if (header.find(" blob ") == std::string::npos || size_at == std::string::npos) {
      throw MissionError(ErrorCode::internal, "unexpected answer from git cat-file: " + header);
    }
    const std::size_t size = std::stoull(header.substr(size_at + 1));
    contents.push_back(output.substr(header_end + 1, size));
    at = header_end + 1 + size + 1;
  }
  return contents;
}

}  // namespace

std::string resolve_commit(const std::string& dir, const std::string& revision) {
  std::string id = git_output(dir, {"rev-parse", "--verify", "--quiet", revision + "^{commit}"},
                              "name a commit of the repository, such as HEAD");
  while (!id.empty() && id.back() == '\n') id.pop_back();
  return id;
}

std::vector<nlohmann::json> parse_records(const std::string& text, const std::string& source) {
  std::vector<nlohmann::json> records;
  nlohmann::json whole = parse_json_or_discarded(text);
  if (!whole.is_discarded()) {
    require_mission_record(whole);
    records.push_back(std::move(whole));
    return records;
  }
  std::size_t number = 0;
  for (const auto& line : lines_of(text)) {
    ++number;
    nlohmann::json record = parse_json_or_discarded(line);
    if (record.is_discarded()) {
      throw MissionError(ErrorCode::invalid_argument,
                         source + ": record " + std::to_string(number) + " is not JSON",
                         "give a file written by 'mission export --output FILE'");
    }
    require_mission_record(record);
    records.push_back(std::move(record));
  }
  return records;
}

void write_record_note(const std::string& dir, const std::string& commit,
                       const nlohmann::json& record) {
  const std::string mission_id = mission_of(record);
  std::string note;
  GitResult existing = run_git(dir, {"notes", kNotesOption, "show", commit});
  if (existing.exit_code == 0) {
    for (const auto& line : lines_of(existing.out)) {
      nlohmann::json other = parse_json_or_discarded(line);
      // A line that is not another mission's record is this mission's old
      // one, or not ours to keep: the note is mission's own.
      try {
        require_mission_record(other);
        if (mission_of(other) == mission_id) continue;
      } catch (const MissionError&) {
        continue;
      }
      note += line + "\n";
    }
  }
  note += record.dump() + "\n";
  git_output(dir, {"notes", kNotesOption, "add", "--force", "--file=-", commit},
             "check that the repository is writable", note);
}

NotedRecords read_record_notes(const std::string& dir, const std::string& range) {
  const std::string hint = "give a revision range of the repository, such as origin/main..HEAD";
  // Commits of the range, newest first.
  std::vector<std::string> commits = lines_of(git_output(dir, {"rev-list", range, "--"}, hint));
  // Every noted commit, with its note's blob.
  std::map<std::string, std::string> note_of;
  GitResult listed = run_git(dir, {"notes", kNotesOption, "list"});
  if (listed.exit_code == 0) {
    for (const auto& line : lines_of(listed.out)) {
      const std::size_t space = line.find(' ');
      if (space != std::string::npos) note_of[line.substr(space + 1)] = line.substr(0, space);
    }
  }
  NotedRecords found;
  std::string wanted;
  for (const auto& commit : commits) {
    auto it = note_of.find(commit);
    if (it == note_of.end()) continue;
    wanted += it->second + "\n";
    ++found.commits_with_notes;
  }
  if (wanted.empty()) return found;
  std::set<std::string> seen;
  for (const auto& note : batch_contents(git_output(dir, {"cat-file", "--batch"}, hint, wanted))) {
    for (auto& record : parse_records(note, std::string("a note in ") + kMissionNotesRef)) {
      if (seen.insert(mission_of(record)).second) found.records.push_back(std::move(record));
    }
  }
  return found;
}

}  // namespace mission::cli
