#include "daemon/sandbox/profile.hpp"

#include <fstream>
#include <optional>
#include <system_error>

#include "daemon/sandbox/hidden_reads.hpp"

namespace mission::daemon::sandbox {
namespace {

namespace fs = std::filesystem;

// The first line of `file` without its newline, or nullopt.
std::optional<std::string> first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// The worktrees of the repository at `cwd` other than its own (`gitdir`,
// empty for a main checkout): each registers its top folder's .git in
// <common>/worktrees/*/gitdir. And mission's worktree folder, with the
// worktrees made after this launch: the one holding `cwd`, or a main
// checkout's own.
void add_other_worktrees(const fs::path& cwd, const fs::path& gitdir, const fs::path& common,
                         std::vector<fs::path>& hidden) {
  std::error_code ec;
  const fs::path parent = cwd.parent_path();
  if (gitdir.empty()) {
    hidden.emplace_back(cwd.string() + std::string(kWorktreeFolderSuffix));
  } else if (parent.filename().string().ends_with(kWorktreeFolderSuffix)) {
    hidden.push_back(parent);
  }
  for (const auto& entry : fs::directory_iterator(common / "worktrees", ec)) {
    if (entry.path() == gitdir) continue;
    auto pointer = first_line(entry.path() / "gitdir");
    if (!pointer) continue;
    const fs::path dot_git(*pointer);
    if (dot_git.is_absolute() && dot_git.parent_path() != cwd)
      hidden.push_back(dot_git.parent_path());
  }
}

// The git metadata a commit from the linked worktree at `cwd` writes.
// Nothing when `cwd` is not the top of a linked worktree (a main checkout
// keeps its .git inside the working directory, writable with it).
void add_worktree_git(const fs::path& cwd, Profile& profile, std::vector<fs::path>& hidden) {
  std::error_code ec;
  const fs::path dot_git = cwd / ".git";
  if (fs::is_directory(dot_git, ec)) {
    // A main checkout: its own .git is writable with it, its linked
    // worktrees are hidden.
    add_other_worktrees(cwd, {}, fs::weakly_canonical(dot_git, ec), hidden);
    return;
  }
  if (!fs::is_regular_file(dot_git, ec)) return;
  auto pointer = first_line(dot_git);
  constexpr std::string_view kGitdir = "gitdir: ";
  if (!pointer || pointer->rfind(kGitdir, 0) != 0) return;
  fs::path gitdir(pointer->substr(kGitdir.size()));
  if (gitdir.is_relative()) gitdir = cwd / gitdir;
  gitdir = fs::weakly_canonical(gitdir, ec);
  auto common_line = first_line(gitdir / "commondir");
  if (!common_line) return;
  fs::path common(*common_line);
  if (common.is_relative()) common = gitdir / common;
  common = fs::weakly_canonical(common, ec);

  profile.writable_trees.push_back(gitdir);
  profile.writable_trees.push_back(common / "objects");
  add_other_worktrees(cwd, gitdir, common, hidden);
  // Git moves a ref by writing NAME.lock beside it and renaming it over
  // NAME, so the rule is on the folder that holds the ref: the kernel's
  // rules name folders, not "this file and its lock".
  auto head = first_line(gitdir / "HEAD");
  constexpr std::string_view kRef = "ref: ";
  if (!head || head->rfind(kRef, 0) != 0) return;
  const fs::path ref = fs::path(head->substr(kRef.size())).lexically_normal();
  if (ref.empty() || ref.is_absolute() || *ref.begin() != "refs") return;
  const fs::path ref_folder = common / ref.parent_path();
  const fs::path log_folder = common / "logs" / ref.parent_path();
  // Both folders exist before the agent starts (creating one would need its
  // parent writable too), the ref's even when git packed its refs.
  fs::create_directories(ref_folder, ec);
  fs::create_directories(log_folder, ec);
  profile.writable_trees.push_back(ref_folder);
  profile.writable_trees.push_back(log_folder);
  if (ref.parent_path() != "refs/heads") {
    profile.notes.push_back("every ref in and beneath " + ref_folder.string() +
                            " is writable: the kernel's rules name folders");
  } else {
    profile.notes.push_back(
        "every branch directly under refs/heads is writable: the kernel's rules name folders");
  }
  profile.notes.push_back("packed-refs, config and hooks of " + common.string() +
                          " are not writable");
}

}  // namespace

Profile launch_profile(const LaunchPlace& place) {
  Profile profile;
  std::error_code ec;
  profile.writable_trees.push_back(place.cwd);
  std::vector<fs::path> hidden = place.hidden;
  add_worktree_git(place.cwd, profile, hidden);
  if (!place.temp_dir.empty()) profile.writable_trees.push_back(place.temp_dir);
  for (const fs::path& path : place.writable) {
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) {
      profile.writable_trees.push_back(path);
    } else if (fs::exists(status)) {
      profile.writable_files.push_back(path);
    }
  }
  for (const char* device : kWritableDevices) profile.writable_files.emplace_back(device);
  if (!place.terminal.empty()) profile.writable_files.push_back(place.terminal);
  hide_reads(hidden, place.readable, profile);
  return profile;
}

}  // namespace mission::daemon::sandbox
