#include "daemon/runs/run_environment.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "shared/agent_environment.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::runs {

std::filesystem::path run_environment_file(const RuntimePaths& paths, const std::string& run_id) {
  return paths.launch_dir() / run_id / "environment.json";
}

void save_run_environment(const RuntimePaths& paths, const std::string& run_id,
                          const std::map<std::string, std::string>& env) {
  namespace fs = std::filesystem;
  const fs::path file = run_environment_file(paths, run_id);
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  fs::permissions(paths.launch_dir(), fs::perms::owner_all, error);
  fs::permissions(file.parent_path(), fs::perms::owner_all, error);
  const std::string text = nlohmann::json(without_execution_variables(env))
                               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // Created 0600 before a byte is written: never readable by others, even
  // for an instant.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  bool written = fd >= 0;
  for (std::size_t done = 0; written && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<std::size_t>(n);
  }
  if (fd >= 0) written = ::close(fd) == 0 && written;
  if (!written) {
    throw MissionError(
        ErrorCode::internal, "cannot write the run's environment to " + file.string(),
        "check the runtime dir's free space and permissions (mission daemon status names it)");
  }
}

std::optional<std::map<std::string, std::string>> load_run_environment(const RuntimePaths& paths,
                                                                       const std::string& run_id) {
  std::ifstream in(run_environment_file(paths, run_id), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json parsed = nlohmann::json::parse(text.str(), nullptr, false);
  if (!parsed.is_object()) return std::nullopt;
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : parsed.items()) {
    if (value.is_string()) env[name] = value.get<std::string>();
  }
  return without_execution_variables(std::move(env));
}

}  // namespace mission::daemon::runs
