#include "daemon/sandbox/hidden_reads.hpp"

#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <system_error>

#include "daemon/sandbox/path_beneath.hpp"

namespace mission::daemon::sandbox {
namespace {

namespace fs = std::filesystem;

// Whether the profile lets the agent write `path` or a folder holding it:
// then it reads it too, and no rule can hide it.
bool written(const fs::path& path, const Profile& profile) {
  return std::any_of(profile.writable_trees.begin(), profile.writable_trees.end(),
                     [&](const fs::path& tree) { return beneath(path, tree); }) ||
         std::find(profile.writable_files.begin(), profile.writable_files.end(), path) !=
             profile.writable_files.end();
}

// The folders and files a launch reads, with room for kMaxReadRules.
struct Entries {
  std::vector<fs::path> folders;
  std::vector<fs::path> files;
  std::size_t size() const { return folders.size() + files.size(); }
  // Files them by type (`type` a dirent d_type; DT_UNKNOWN is looked up).
  // Symbolic links are left out: what one names is read through its own
  // rule, and a rule made through it would open its target.
  void add(fs::path path, unsigned char type) {
    if (type == DT_UNKNOWN) {
      std::error_code ec;
      const fs::file_status status = fs::symlink_status(path, ec);
      if (ec) return;
      type = fs::is_symlink(status) ? DT_LNK : fs::is_directory(status) ? DT_DIR : DT_REG;
    }
    if (type == DT_LNK) return;
    (type == DT_DIR ? folders : files).push_back(std::move(path));
  }
};

// Adds the entries of `folder` but those in `skip`. False once they would
// pass kMaxReadRules.
bool add_entries(const fs::path& folder, const std::set<fs::path>& skip, Entries& entries) {
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) return true;  // the daemon cannot list it: nor may the agent
  bool fits = true;
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    fs::path path = folder / entry->d_name;
    if (skip.count(path) != 0) continue;
    if (entries.size() == kMaxReadRules) {
      fits = false;
      break;
    }
    entries.add(std::move(path), entry->d_type);
  }
  ::closedir(dir);
  return fits;
}

}  // namespace

void hide_reads(const std::vector<fs::path>& hidden, const std::vector<fs::path>& readable,
                Profile& profile) {
  std::set<fs::path> kept;
  std::string exposed;
  for (const fs::path& path : hidden) {
    std::error_code ec;
    // The real path is the one the kernel's rules see; an absent one has
    // nothing to hide (one made later, in a folder on the way to another
    // hidden path, is not readable either).
    const fs::path real = fs::canonical(path, ec);
    if (ec || real == real.root_path()) continue;
    if (written(real, profile)) {
      exposed += (exposed.empty() ? "" : ", ") + real.string();
      continue;
    }
    kept.insert(real);
  }
  // A path beneath another hidden one is hidden with it.
  for (auto it = kept.begin(); it != kept.end();) {
    const bool inner =
        std::any_of(kept.begin(), it, [&](const fs::path& outer) { return beneath(*it, outer); });
    it = inner ? kept.erase(it) : std::next(it);
  }
  if (!exposed.empty()) profile.secrets_not_hidden = "inside a folder the agent writes: " + exposed;
  if (kept.empty()) return;

  std::set<fs::path> ancestors;
  for (const fs::path& path : kept) {
    for (fs::path folder = path.parent_path();; folder = folder.parent_path()) {
      ancestors.insert(folder);
      if (folder == folder.root_path()) break;
    }
  }
  std::set<fs::path> skip = kept;
  skip.insert(ancestors.begin(), ancestors.end());
  Entries entries;
  for (const fs::path& path : readable) entries.add(path, DT_UNKNOWN);
  for (const fs::path& folder : ancestors) {
    if (!add_entries(folder, skip, entries)) {
      const std::string why = "the folders around them hold more than " +
                              std::to_string(kMaxReadRules) + " entries (kMaxReadRules)";
      profile.secrets_not_hidden =
          profile.secrets_not_hidden.empty() ? why : why + "; " + profile.secrets_not_hidden;
      return;
    }
  }
  profile.hidden.assign(kept.begin(), kept.end());
  profile.readable_trees = std::move(entries.folders);
  profile.readable_files = std::move(entries.files);
}

}  // namespace mission::daemon::sandbox
