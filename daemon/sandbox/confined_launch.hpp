#pragma once
// The confinement of one child the daemon spawns (an agent, a --check):
// its profile, its kernel rules and its private TMPDIR, kept while the
// child may run. The one place a launch is confined, so every path that
// spawns confines the same way.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "daemon/loop/child_process.hpp"
#include "daemon/sandbox/confinement.hpp"
#include "daemon/sandbox/profile.hpp"

namespace mission::daemon::sandbox {

class ConfinedLaunch {
 public:
  // Prepares `options` (about to be spawned at place.cwd) for confinement:
  // a private TMPDIR under `temp_root` named `name`, and the kernel's rules
  // applied on the spawning thread. On a kernel without Landlock, options
  // are left as they are and warning() says so, unless the policy is
  // require (sandbox_policy.hpp). Throws MissionError when the folder or
  // the rules cannot be made, or the policy refuses an unconfined launch.
  ConfinedLaunch(LaunchPlace place, const std::filesystem::path& temp_root, const std::string& name,
                 loop::ChildProcess::Options& options);
  // Removes the private TMPDIR unless keep_temp() was called.
  ~ConfinedLaunch();
  ConfinedLaunch(const ConfinedLaunch&) = delete;
  ConfinedLaunch& operator=(const ConfinedLaunch&) = delete;

  // The child is spawned (or will not be): the rules are in the kernel, or
  // not needed, and are let go.
  void spawned() { rules_.reset(); }
  // The child runs on while its owner goes (the daemon stops): its TMPDIR
  // stays.
  void keep_temp() { keep_temp_ = true; }

  bool confined() const { return warning_.empty(); }
  // Why the child runs unconfined; empty when it is confined.
  const std::string& warning() const { return warning_; }
  const Profile& profile() const { return profile_; }

 private:
  Profile profile_;
  std::unique_ptr<Confinement> rules_;
  std::filesystem::path temp_dir_;
  std::string warning_;
  bool keep_temp_ = false;
};

// The clause of an execution's sandbox state on its secrets: "; secrets
// hidden" (", except ..." when some stay readable), "; secrets not hidden:
// WHY", or "; secrets not hidden" when `launch` is null or unconfined (the
// state's start says why: --sandbox off, no Landlock).
std::string secrets_note(const ConfinedLaunch* launch);

}  // namespace mission::daemon::sandbox
