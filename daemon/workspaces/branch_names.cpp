#include "daemon/workspaces/branch_names.hpp"

#include <algorithm>
#include <array>

#include "shared/limits.hpp"

namespace mission::daemon::workspaces {
namespace {

bool forbidden_byte(unsigned char c) {
  return c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' ||
         c == '*' || c == '[' || c == '\\';
}

// HEAD, FETCH_HEAD, ORIG_HEAD, MERGE_HEAD, CHERRY_PICK_HEAD, ...: git reads
// an upper-case name ending in HEAD as a file in .git before any branch.
bool head_like(std::string_view component) {
  if (!component.ends_with("HEAD")) return false;
  return std::all_of(component.begin(), component.end(),
                     [](unsigned char c) { return (c >= 'A' && c <= 'Z') || c == '_'; });
}

}  // namespace

std::string branch_name_problem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name.size() > limits::kMaxBranchNameBytes) {
    return "it is longer than " + std::to_string(limits::kMaxBranchNameBytes) + " bytes";
  }
  if (std::any_of(name.begin(), name.end(), forbidden_byte)) {
    return "it holds a control character, a space or one of ~ ^ : ? * [ \\";
  }
  if (name == "@") return "git reads @ as HEAD";
  if (name.find("@{") != std::string_view::npos) return "git reads @{ as a reflog";
  if (name.front() == '-') return "it starts with '-'";
  if (name.front() == '/' || name.back() == '/' || name.find("//") != std::string_view::npos) {
    return "it has an empty path component";
  }
  if (name.back() == '.') return "it ends with '.'";
  if (name.find("..") != std::string_view::npos) return "it holds '..'";
  std::string_view rest = name;
  for (;;) {
    const auto slash = rest.find('/');
    const std::string_view component = rest.substr(0, slash);
    if (component.front() == '.') return "a path component starts with '.'";
    if (component.ends_with(".lock")) return "a path component ends with '.lock'";
    if (head_like(component)) return "git reads " + std::string(component) + " as a special ref";
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  static constexpr std::array<std::string_view, 4> kRefPrefixes = {"refs/", "heads/", "tags/",
                                                                   "remotes/"};
  for (std::string_view prefix : kRefPrefixes) {
    if (name.starts_with(prefix)) return "it would pose as " + std::string(prefix) + "... refs";
  }
  if (name.starts_with(kMissionBranchPrefix)) {
    return "branches under " + std::string(kMissionBranchPrefix) + " are mission's own";
  }
  return {};
}

}  // namespace mission::daemon::workspaces
