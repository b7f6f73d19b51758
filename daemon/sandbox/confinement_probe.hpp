#pragma once
// Proof that a profile holds on this kernel: a short child of the daemon,
// confined as an agent would be, tries to create a file in each of a few
// folders and to open a few paths for reading, and says which it could
// (mission sandbox check).

#include <filesystem>
#include <vector>

#include "daemon/sandbox/confinement.hpp"

namespace mission::daemon::sandbox {

enum class ProbeAccess {
  write,  // create (then remove) a file named after the child in the folder
  read,   // open the path itself for reading (a folder is listed this way)
};

struct ProbeTarget {
  std::filesystem::path path;
  ProbeAccess access = ProbeAccess::write;
};

struct ProbeOutcome {
  std::filesystem::path file;  // the file it tried to create (and removed), or the path read
  ProbeAccess access = ProbeAccess::write;
  bool allowed = false;
  int error = 0;  // errno of the refused create or open
};

// Forks a child that applies `rules` to itself (nullptr: it runs
// unconfined, as an agent on a kernel without Landlock) and tries each
// target in order. Blocks for the child, which runs only system calls.
// Throws MissionError internal when it cannot be started.
std::vector<ProbeOutcome> probe_access(const Confinement* rules,
                                       const std::vector<ProbeTarget>& targets);

}  // namespace mission::daemon::sandbox
