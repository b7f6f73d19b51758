#pragma once
// The paths a person lets an agent write beyond its profile
// (--allow-write PATH on mission run and mission workflows run), checked
// before anything is launched.

#include <filesystem>
#include <string>
#include <vector>

namespace mission::daemon::sandbox {

// Each path must be absolute, exist, be its own canonical form (no
// symlink, no . or ..), and be neither inside a .git folder nor a folder
// that holds `repository_git` (the run's main checkout's .git; empty for
// none). Throws MissionError invalid_argument naming the path and what to
// give instead.
void check_allowed_writes(const std::vector<std::filesystem::path>& paths,
                          const std::filesystem::path& repository_git);

// ", also writes A, B" for the record of a confined launch; empty for none.
std::string allowed_writes_note(const std::vector<std::filesystem::path>& paths);

}  // namespace mission::daemon::sandbox
