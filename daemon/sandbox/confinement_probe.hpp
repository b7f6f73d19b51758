#pragma once
// Proof that a profile holds on this kernel: a short child of the daemon,
// confined as an agent would be, tries to create a file in each of a few
// folders and says which it could (mission sandbox check).

#include <filesystem>
#include <vector>

#include "daemon/sandbox/confinement.hpp"

namespace mission::daemon::sandbox {

struct ProbeOutcome {
  std::filesystem::path file;  // the file it tried to create (and removed)
  bool written = false;
  int error = 0;  // errno of the refused create
};

// Forks a child that applies `rules` to itself (nullptr: it runs
// unconfined, as an agent on a kernel without Landlock) and creates, then
// removes, a file named after the child in each of `folders`. Blocks for
// the child, which runs only system calls. Throws MissionError internal
// when it cannot be started.
std::vector<ProbeOutcome> probe_writes(const Confinement* rules,
                                       const std::vector<std::filesystem::path>& folders);

}  // namespace mission::daemon::sandbox
