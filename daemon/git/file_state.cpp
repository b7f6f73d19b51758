#include "daemon/git/file_state.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace mission::daemon::git {
namespace {

void sort_unique(std::vector<std::string>& paths) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
}

}  // namespace

ChangeSet build_change_set(const std::vector<PathStates>& paths, const std::string& empty_content) {
  ChangeSet changes;
  // Content of each deleted path, to find renames among the added ones.
  std::map<std::pair<std::uint32_t, std::string>, std::vector<std::string>> deleted_by_content;
  std::map<std::string, const FileState*> added_states;
  for (const auto& entry : paths) {
    if (entry.start == entry.now) continue;
    if (!entry.start.present()) {
      changes.added.push_back(entry.path);
      added_states[entry.path] = &entry.now;
    } else if (!entry.now.present()) {
      changes.deleted.push_back(entry.path);
    } else {
      changes.modified.push_back(entry.path);
    }
  }
  sort_unique(changes.added);
  sort_unique(changes.modified);
  sort_unique(changes.deleted);

  for (const auto& entry : paths) {
    if (entry.start.present() && !entry.now.present() && entry.start.content != empty_content) {
      deleted_by_content[{entry.start.mode, entry.start.content}].push_back(entry.path);
    }
  }
  for (auto& [key, from_paths] : deleted_by_content) {
    sort_unique(from_paths);
    // Consumed from the front, in path order.
    std::reverse(from_paths.begin(), from_paths.end());
  }
  for (const auto& to : changes.added) {
    const FileState& state = *added_states.at(to);
    auto found = deleted_by_content.find({state.mode, state.content});
    if (found == deleted_by_content.end() || found->second.empty()) continue;
    changes.renamed.push_back({found->second.back(), to});
    found->second.pop_back();
  }
  return changes;
}

}  // namespace mission::daemon::git
