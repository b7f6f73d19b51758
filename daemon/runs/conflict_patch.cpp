#include "daemon/runs/conflict_patch.hpp"

#include <algorithm>
#include <string_view>

namespace mission::daemon::runs {
namespace {

constexpr std::string_view kHeader = "diff --git ";

// "diff --git a/X b/Y": whether X or Y is in `paths`. Paths with spaces
// make the split ambiguous: each split point is tried.
bool names_one_of(std::string_view header, const std::vector<std::string>& paths) {
  std::string_view rest = header.substr(kHeader.size());
  for (std::size_t space = rest.find(" b/"); space != std::string_view::npos;
       space = rest.find(" b/", space + 1)) {
    std::string_view old_path = rest.substr(0, space);
    std::string_view new_path = rest.substr(space + 3);
    if (old_path.rfind("a/", 0) == 0) old_path.remove_prefix(2);
    if (std::binary_search(paths.begin(), paths.end(), old_path) ||
        std::binary_search(paths.begin(), paths.end(), new_path))
      return true;
  }
  return false;
}

}  // namespace

std::string patch_of_paths(const std::string& patch, const std::vector<std::string>& paths,
                           std::size_t max_bytes) {
  std::string out;
  bool keep = false;
  bool cut = false;
  std::size_t start = 0;
  while (start < patch.size()) {
    std::size_t end = patch.find('\n', start);
    end = end == std::string::npos ? patch.size() : end + 1;
    std::string_view line(patch.data() + start, end - start);
    start = end;
    if (line.rfind(kHeader, 0) == 0) {
      std::string_view header = line;
      if (!header.empty() && header.back() == '\n') header.remove_suffix(1);
      keep = names_one_of(header, paths);
    }
    if (!keep) continue;
    if (out.size() + line.size() > max_bytes) {
      cut = true;
      break;
    }
    out.append(line);
  }
  if (cut) out += "[... the rest of this patch is left out: it is longer than the prompt allows]\n";
  return out;
}

}  // namespace mission::daemon::runs
