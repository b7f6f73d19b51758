#pragma once
// The environment a run's agents and checks get (docs/adr/0032): what the
// person's `mission workflows run` passed, without mission's per-execution
// variables. It may hold secrets (API keys), so it is never written to the
// database: it lives beside the run's launch files, in the private runtime
// dir, in a 0600 file removed when the run ends, so a restarted daemon
// resumes the run with it.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "shared/runtime_paths.hpp"

namespace mission::daemon::runs {

std::filesystem::path run_environment_file(const RuntimePaths& paths, const std::string& run_id);

// Throws MissionError internal naming the file when it cannot be written.
void save_run_environment(const RuntimePaths& paths, const std::string& run_id,
                          const std::map<std::string, std::string>& env);

// nullopt when the file is gone (the runtime dir was cleared, a reboot) or
// unreadable; the execution variables are dropped whatever it holds.
std::optional<std::map<std::string, std::string>> load_run_environment(const RuntimePaths& paths,
                                                                       const std::string& run_id);

}  // namespace mission::daemon::runs
