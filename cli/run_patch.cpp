#include "cli/run_patch.hpp"

#include "cli/git_command.hpp"

namespace mission::cli {
namespace {

// The commit's parents, by `git rev-list --parents`: its id then theirs.
std::vector<std::string> parents_of(const std::string& repository, const std::string& commit) {
  const std::string line =
      git_output(repository, {"rev-list", "--parents", "-n", "1", commit, "--"},
                 "the run's commits are gone from " + repository + "; run the workflow again");
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < line.size()) {
    const std::size_t end = line.find_first_of(" \n", at);
    const std::string word = line.substr(at, end == std::string::npos ? end : end - at);
    if (!word.empty()) words.push_back(word);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  if (!words.empty()) words.erase(words.begin());
  return words;
}

bool branch_exists(const std::string& repository, const std::string& branch) {
  return run_git(repository, {"rev-parse", "--verify", "--quiet", "refs/heads/" + branch})
             .exit_code == 0;
}

}  // namespace

PatchRange run_patch_range(const nlohmann::json& run) {
  return {run.value("baseCommit", ""), "refs/heads/" + run.value("integrationBranch", "")};
}

std::optional<PatchRange> task_patch_range(const std::string& repository,
                                           const nlohmann::json& task) {
  const nlohmann::json attempts = task.value("attempts", nlohmann::json::array());
  for (auto attempt = attempts.rbegin(); attempt != attempts.rend(); ++attempt) {
    if (!attempt->contains("mergeCommit")) continue;
    const std::string merge = attempt->value("mergeCommit", "");
    const std::vector<std::string> parents = parents_of(repository, merge);
    // A merge commit brought in what its second parent holds beyond its
    // first; a fast-forward made the task's own commits the branch's.
    if (parents.size() >= 2) return PatchRange{parents.front(), merge};
    if (attempt->contains("baseCommit")) return PatchRange{attempt->value("baseCommit", ""), merge};
    if (parents.size() == 1) return PatchRange{parents.front(), merge};
    return std::nullopt;
  }
  if (attempts.empty()) return std::nullopt;
  const nlohmann::json& newest = attempts.back();
  if (!newest.contains("branch") || !newest.contains("baseCommit")) return std::nullopt;
  const std::string branch = newest.value("branch", "");
  if (!branch_exists(repository, branch)) return std::nullopt;
  return PatchRange{newest.value("baseCommit", ""), "refs/heads/" + branch};
}

nlohmann::json files_in_range(const std::string& repository, const PatchRange& range) {
  const std::string out = git_output(
      repository, {"diff", "--name-status", "--no-renames", "-z", range.from, range.to, "--"},
      "the run's commits are gone from " + repository + "; run the workflow again");
  nlohmann::json files = {{"added", nlohmann::json::array()},
                          {"modified", nlohmann::json::array()},
                          {"deleted", nlohmann::json::array()}};
  // -z: "STATUS\0PATH\0" for each file.
  std::size_t at = 0;
  while (at < out.size()) {
    const std::size_t status_end = out.find('\0', at);
    if (status_end == std::string::npos) break;
    const std::size_t path_end = out.find('\0', status_end + 1);
    if (path_end == std::string::npos) break;
    const char status = out[at];
    const std::string path = out.substr(status_end + 1, path_end - status_end - 1);
    files[status == 'A' ? "added" : status == 'D' ? "deleted" : "modified"].push_back(path);
    at = path_end + 1;
  }
  return files;
}

}  // namespace mission::cli
