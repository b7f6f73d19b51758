#pragma once
// A profile made into the kernel's rules, ready to be applied to the
// thread that spawns one child (loop::ChildProcess::Options'
// confine_spawning_thread). The daemon itself is never confined.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "daemon/sandbox/kernel_support.hpp"
#include "daemon/sandbox/profile.hpp"

namespace mission::daemon::sandbox {

class Confinement {
 public:
  // The Landlock ruleset of `profile` on this kernel. Throws MissionError
  // internal naming the path the kernel refused. Call only when
  // support.landlock_abi > 0.
  Confinement(const Profile& profile, const KernelSupport& support);
  ~Confinement();
  Confinement(const Confinement&) = delete;
  Confinement& operator=(const Confinement&) = delete;

  // no_new_privs, then the ruleset, on the calling thread: 0 or a negative
  // errno. Runs on the spawning thread; the ruleset stays open until this
  // object goes.
  int apply_to_this_thread() const;

  // A hook for ChildProcess::Options::confine_spawning_thread; it refers to
  // this object, which must outlive the spawn.
  std::function<int()> spawn_hook() const {
    return [this] { return apply_to_this_thread(); };
  }

 private:
  // A rule reading beneath `path` (the profile's readable paths).
  void add_readable(const std::filesystem::path& path, std::uint64_t rights);
  // Adds the rule `rights` beneath `target` (an O_PATH descriptor of `path`,
  // closed here). A refusal other than `tolerated` (0: none) ends the
  // ruleset and throws.
  void add_beneath(int target, const std::filesystem::path& path, std::uint64_t rights,
                   int tolerated);

  int ruleset_fd_ = -1;
};

// The line a launch's log and the daemon's log get when the kernel cannot
// confine it: what is missing and what the agent may then do.
std::string unconfined_warning(const KernelSupport& support);

}  // namespace mission::daemon::sandbox
