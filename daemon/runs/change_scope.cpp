#include "daemon/runs/change_scope.hpp"

#include <nlohmann/json.hpp>

#include "daemon/git/scope_rule.hpp"

namespace mission::daemon::runs {

ScopeVerdict judge_change_set(const std::vector<std::string>& changed,
                              const std::string& files_likely_affected) {
  ScopeVerdict verdict;
  const nlohmann::json listed = nlohmann::json::parse(files_likely_affected, nullptr, false);
  std::vector<git::scope::Area> areas;
  std::string named;
  if (listed.is_array()) {
    for (const auto& entry : listed) {
      if (!entry.is_string()) continue;
      git::scope::Area area = git::scope::parse_area(entry.get<std::string>());
      if (area.pattern.empty()) continue;
      named += (named.empty() ? "" : ", ") + entry.get<std::string>();
      areas.push_back(std::move(area));
    }
  }
  if (areas.empty()) return verdict;
  if (changed.empty()) {
    verdict.failure = "the agent changed nothing, and the plan expects changes to " + named;
    return verdict;
  }
  std::vector<std::string> outside;
  for (const auto& path : changed) {
    bool covered = false;
    for (const auto& area : areas) {
      if (git::scope::covers(area, path)) {
        covered = true;
        break;
      }
    }
    if (!covered) outside.push_back(path);
  }
  if (outside.empty()) return verdict;
  std::string warning = std::to_string(outside.size()) +
                        (outside.size() == 1 ? " file" : " files") +
                        " changed outside files_likely_affected: ";
  for (std::size_t i = 0; i < outside.size() && i < kScopeWarningPaths; ++i) {
    warning += (i == 0 ? "" : ", ") + outside[i];
  }
  if (outside.size() > kScopeWarningPaths) warning += ", ...";
  verdict.warning = std::move(warning);
  return verdict;
}

}  // namespace mission::daemon::runs
