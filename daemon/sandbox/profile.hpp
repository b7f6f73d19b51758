#pragma once
// The confinement profile of one launch: what the agent may write, and
// what it may not read (the person's secrets, other worktrees, the
// daemon's folders); everything else is read and executed as without it
// (the system, the repository, the person's dotfiles). Signals and
// abstract unix sockets stay inside the agent's own process tree. Nothing
// here touches the kernel.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::sandbox {

// Where a launch happens and what it declares beyond its working directory.
struct LaunchPlace {
  std::filesystem::path cwd;       // the worktree, or mission run's cwd
  std::filesystem::path temp_dir;  // its private TMPDIR
  std::filesystem::path terminal;  // its pseudo-terminal's device, if any
  // The adapter's state folders and files (its CLI's configuration, caches
  // and sessions), and what the person allowed: paths that do not exist
  // are left out.
  std::vector<std::filesystem::path> writable;
  // What the agent must not read or list (hidden_reads.hpp): secrets,
  // the daemon's folders, --hide. The other worktrees of cwd's repository
  // are added by launch_profile.
  std::vector<std::filesystem::path> hidden;
  // Beneath a hidden path, what the agent still reads (its launch files).
  std::vector<std::filesystem::path> readable;
};

struct Profile {
  // Directories written beneath (create, change, remove, rename inside).
  std::vector<std::filesystem::path> writable_trees;
  // Single files written in place (devices, a state file).
  std::vector<std::filesystem::path> writable_files;
  // A note per rule that is narrower than it looks, or a limit of the
  // kernel's rules (mission sandbox check shows them).
  std::vector<std::string> notes;
  // The paths hidden from the agent (canonical). When there are any,
  // reading, listing and executing are handled too: allowed beneath the
  // readable folders, on the readable files, and on the writable paths
  // only.
  std::vector<std::filesystem::path> hidden;
  std::vector<std::filesystem::path> readable_trees;
  std::vector<std::filesystem::path> readable_files;
  // Why secrets the launch asked to hide stay readable (too many entries
  // around them, or inside a folder the agent writes); empty when none.
  std::string secrets_not_hidden;
};

// Devices every agent writes: /dev/null and /dev/tty (its own terminal,
// whichever that is).
inline constexpr const char* kWritableDevices[] = {"/dev/null", "/dev/tty"};

// The folder beside a repository's main work tree where mission makes its
// worktrees (<repository>.worktrees, daemon/workspaces/workspaces.hpp, which
// holds the two equal): a task's agent reads none of it but its own.
inline constexpr std::string_view kWorktreeFolderSuffix = ".worktrees";

// The profile of a launch at `place`. When the working directory is a
// linked git worktree (a task's), its git metadata is added as narrowly as
// the kernel's rules allow: the worktree's own gitdir, the shared object
// store, and the folders holding its branch's ref and reflog; never the
// repository's config, hooks or the main checkout. Its other linked
// worktrees, and the worktree folder that holds it, are hidden.
Profile launch_profile(const LaunchPlace& place);

}  // namespace mission::daemon::sandbox
