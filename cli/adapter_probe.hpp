#pragma once
// Finds agent binaries and asks their versions, for `mission adapters list`.
// Runs in the CLI, in the user's own environment (the daemon's PATH is that
// of whichever command started it), all probes at once, each bounded by
// limits::kAdapterVersionTimeoutMs.

#include <optional>
#include <string>
#include <vector>

#include "shared/executable_path.hpp"

namespace mission::cli {

using mission::find_executable;

struct VersionProbe {
  std::string version;  // the first non-empty line it printed (stdout or stderr)
  std::string problem;  // why there is none: "timed out after N ms", "exit 2", ...
};

// Runs `<path> --version` for every path at once, stdin on /dev/null, each
// in its own process group, which is killed if it outlives the timeout.
std::vector<VersionProbe> probe_versions(const std::vector<std::string>& paths);

}  // namespace mission::cli
