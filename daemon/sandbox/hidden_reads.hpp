#pragma once
// Hiding paths from a confined agent with Landlock, which only allows: a
// rule opens a folder and everything beneath it, and nothing can close a
// subtree again. So reading is allowed not on a hidden path's ancestors
// but on each of their other entries, along the path: to hide
// /home/u/.ssh, every entry of / but home, of /home but u, of /home/u but
// .ssh. The ancestors themselves cannot be listed then (ls ~ fails; what
// is in them still opens), and an entry made in one after the launch is
// not readable. docs/adr/0051.

#include <cstddef>
#include <filesystem>
#include <vector>

#include "daemon/sandbox/profile.hpp"

namespace mission::daemon::sandbox {

// The most read rules one launch gets: one per entry of the folders on the
// way to its hidden paths, plus its readable paths. Each rule is an
// open(O_PATH) and a landlock_add_rule made on the daemon's loop thread
// before the spawn, about 20 microseconds on a loaded machine (docs/adr/
// 0051). Past it the launch hides nothing (reads stay open as
// without hiding) and its sandbox state says so: a HOME of thousands of
// entries must not make every launch slow, and a partial hiding would hide
// an arbitrary part.
inline constexpr std::size_t kMaxReadRules = 4096;

// Fills profile.hidden, its readable folders and files, and
// profile.secrets_not_hidden
// from `hidden` (absent paths are dropped: nothing to hide) and
// `readable`, after the profile's writable paths are known: a hidden path
// inside a writable folder stays readable (a rule cannot close it) and is
// named in secrets_not_hidden. Reads the folders on the way (the daemon's
// own rights); touches nothing.
void hide_reads(const std::vector<std::filesystem::path>& hidden,
                const std::vector<std::filesystem::path>& readable, Profile& profile);

}  // namespace mission::daemon::sandbox
