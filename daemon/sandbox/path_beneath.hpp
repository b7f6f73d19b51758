#pragma once
// Whether a path lies in a folder, compared by components ("/a/bc" is not
// beneath "/a/b"); both as given, neither resolved.

#include <algorithm>
#include <filesystem>

namespace mission::daemon::sandbox {

inline bool beneath(const std::filesystem::path& path, const std::filesystem::path& tree) {
  auto [tree_end, path_at] = std::mismatch(tree.begin(), tree.end(), path.begin(), path.end());
  return tree_end == tree.end();
}

}  // namespace mission::daemon::sandbox
