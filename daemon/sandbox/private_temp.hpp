#pragma once
// The private temporary folder of one confined launch, given to it as
// TMPDIR: the shared /tmp is not writable under its profile.

#include <filesystem>
#include <string>

namespace mission::daemon::sandbox {

// Creates `root` (0700) and `root`/`name` (0700, emptied if it was left
// over) and returns the latter. Throws MissionError internal naming it.
std::filesystem::path make_private_temp(const std::filesystem::path& root, const std::string& name);

// Removes the folder and everything in it; never throws.
void remove_private_temp(const std::filesystem::path& dir) noexcept;

}  // namespace mission::daemon::sandbox
