#include "cli/cli_context.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "shared/agent_environment.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::cli {

RuntimePaths CliContext::paths() const {
  return resolve_runtime_paths(process_env(), ::getuid(), options.socket);
}

DaemonConnection CliContext::connect() const {
  return connect_daemon(paths(), !options.no_autostart);
}

std::string CliContext::working_directory(const std::string& option) {
  std::filesystem::path cwd =
      option.empty() ? std::filesystem::current_path() : std::filesystem::absolute(option);
  if (!std::filesystem::is_directory(cwd)) {
    throw MissionError(ErrorCode::invalid_argument, "not a directory: " + cwd.string(),
                       "pass an existing directory with --cwd");
  }
  return cwd.lexically_normal().string();
}

std::optional<DaemonClient> CliContext::connect_if_running() const {
  return DaemonClient::connect(paths().socket);
}

std::vector<std::string> CliContext::absolute_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> absolute;
  for (const auto& path : paths)
    absolute.push_back(std::filesystem::absolute(path).lexically_normal().string());
  return absolute;
}

std::string CliContext::agent_binary(const std::string& bin) {
  return bin.find('/') == std::string::npos
             ? bin
             : std::filesystem::absolute(bin).lexically_normal().string();
}

std::int64_t CliContext::since_option(const std::string& text, std::int64_t now_ms) {
  std::optional<std::int64_t> since = parse_since(text, now_ms);
  if (!since) {
    throw MissionError(ErrorCode::invalid_argument, "cannot read --since '" + text + "'",
                       "give 2h, 30m, 3d, 1w, today, yesterday or a real date such as 2026-11-23");
  }
  return *since;
}

std::map<std::string, std::string> CliContext::agent_environment(
    const std::vector<std::string>& overrides) {
  // mission's per-execution variables of this shell (a CLI run by an agent
  // has its token) are never passed on, not even with --env.
  std::map<std::string, std::string> env = process_environment();
  for (const auto& assignment : overrides) {
    auto equals = assignment.find('=');
    env[assignment.substr(0, equals)] = assignment.substr(equals + 1);
  }
  return without_execution_variables(std::move(env));
}

std::string CliContext::person_name() {
  for (const char* name : {"USER", "LOGNAME"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return value;
  }
  return "uid " + std::to_string(::getuid());
}

}  // namespace mission::cli
