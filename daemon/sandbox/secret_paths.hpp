#pragma once
// The person's secrets under HOME that a confined agent must not read: one
// table, each entry with the reason it is there. Pure: nothing here
// touches the disk but check_hidden_paths.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::sandbox {

struct SecretPath {
  std::string_view home_relative;  // beneath HOME
  // The adapter whose own CLI reads it (its login); empty: hidden from all.
  std::string_view owner;
};

// The secrets of the table in secret_paths.cpp (keys, cloud and registry
// credentials, and the agent CLIs' own logins, each hidden from every agent
// but its own CLI's) under `home` hidden from a launch of
// `adapter`, absolute; existing or not (the profile drops what is absent).
// Empty when `home` is not absolute.
std::vector<std::filesystem::path> secret_paths(const std::filesystem::path& home,
                                                std::string_view adapter);

// The --hide paths of one `mission run` or `mission workflows run`: each
// adds the entries of the folders on its way to every launch's read rules.
inline constexpr std::size_t kMaxHiddenPaths = 16;

// The paths a person hides from an agent (--hide PATH on mission run and
// mission workflows run): each absolute, existing, not /. Throws
// MissionError invalid_argument naming the path and what to give instead.
void check_hidden_paths(const std::vector<std::filesystem::path>& paths);

// ", also hides A, B" for the record of a confined launch; empty for none.
std::string hidden_paths_note(const std::vector<std::filesystem::path>& paths);

}  // namespace mission::daemon::sandbox
