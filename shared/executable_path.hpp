#pragma once
// Finding a program the way execvp would: used by the CLI for `mission
// adapters list` (in the user's environment) and by the daemon for the
// control toolset's list_executors (in the environment its agents get).

#include <optional>
#include <string>

namespace mission {

// Whether `path` is a regular file this process may execute.
bool is_executable_file(const std::string& path);

// `name` made absolute if it holds a '/', else the first executable file of
// that name in `search_path` (a PATH value; the process's PATH when null);
// nullopt if there is none.
std::optional<std::string> find_executable(const std::string& name,
                                           const char* search_path = nullptr);

}  // namespace mission
