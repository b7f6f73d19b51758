#include "daemon/git/change_set.hpp"

#include <sys/stat.h>

#include "daemon/git/checksum_snapshot.hpp"
#include "daemon/git/git_backend.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {

Snapshot take_snapshot(const std::string& cwd) {
  if (cwd.empty() || cwd.front() != '/') {
    throw MissionError(ErrorCode::invalid_argument, "working directory \"" + cwd + "\" is not absolute",
                       "pass an absolute directory");
  }
  struct stat st;
  if (::stat(cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw MissionError(ErrorCode::not_found, "directory " + cwd + " does not exist",
                       "pass the task's existing working directory");
  }
  if (auto snapshot = git_backend().take_snapshot(cwd)) return std::move(*snapshot);
  return take_checksum_snapshot(cwd);
}

ChangeSet compute_change_set(const Snapshot& start) {
  if (start.type == "git") return git_backend().compute_change_set(start);
  if (start.type == "checksum") return compute_checksum_change_set(start);
  throw MissionError(ErrorCode::invalid_argument, "unknown snapshot type \"" + start.type + "\"",
                     "start the task again to take a new snapshot");
}

nlohmann::json to_json(const ChangeSet& changes) {
  nlohmann::json renamed = nlohmann::json::array();
  for (const auto& rename : changes.renamed) renamed.push_back({{"from", rename.from}, {"to", rename.to}});
  return {{"added", changes.added},
          {"modified", changes.modified},
          {"deleted", changes.deleted},
          {"renamed", std::move(renamed)}};
}

nlohmann::json to_json(const ScopeVerification& verification) {
  return {{"scope_match", verification.scope_match},
          {"unexpected_files", verification.unexpected_files},
          {"warnings", verification.warnings}};
}

}  // namespace mission::daemon::git
