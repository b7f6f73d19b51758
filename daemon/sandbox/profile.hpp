#pragma once
// The confinement profile of one launch: what the agent may write. Reads
// and execution are left open everywhere (the agent reads the system and
// the repository); signals and abstract unix sockets stay inside the
// agent's own process tree. Pure: nothing here touches the kernel.

#include <filesystem>
#include <string>
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
};

struct Profile {
  // Directories written beneath (create, change, remove, rename inside).
  std::vector<std::filesystem::path> writable_trees;
  // Single files written in place (devices, a state file).
  std::vector<std::filesystem::path> writable_files;
  // A note per rule that is narrower than it looks, or a limit of the
  // kernel's rules (mission sandbox check shows them).
  std::vector<std::string> notes;
};

// Devices every agent writes: /dev/null and /dev/tty (its own terminal,
// whichever that is).
inline constexpr const char* kWritableDevices[] = {"/dev/null", "/dev/tty"};

// The profile of a launch at `place`. When the working directory is a
// linked git worktree (a task's), its git metadata is added as narrowly as
// the kernel's rules allow: the worktree's own gitdir, the shared object
// store, and the folders holding its branch's ref and reflog; never the
// repository's config, hooks or the main checkout.
Profile launch_profile(const LaunchPlace& place);

}  // namespace mission::daemon::sandbox
