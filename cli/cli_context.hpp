#pragma once
// What every command shares: the global options and the way to reach the
// daemon with them.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/autostart.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::cli {

struct GlobalOptions {
  bool json = false;
  bool no_autostart = false;
  bool utc = false;
  std::optional<std::string> socket;  // --socket, else $MISSION_SOCKET
};

struct CliContext {
  GlobalOptions options;
  // Set by the chosen command while parsing; run after parsing succeeds, so
  // no command work happens inside CLI11 callbacks.
  std::function<int()> action;

  RuntimePaths paths() const;

  // Connects, auto-starting the daemon unless --no-autostart was given.
  DaemonConnection connect() const;

  // The absolute, normalised form of a --cwd option (the current directory
  // when empty); throws invalid_argument if it is not a directory.
  static std::string working_directory(const std::string& option);

  // This process's environment with `overrides` (NAME=VALUE) applied: what
  // an agent the daemon launches for us gets.
  static std::map<std::string, std::string> agent_environment(
      const std::vector<std::string>& overrides);

  // `paths` made absolute from this shell's directory, as a path option
  // must be before it reaches the daemon (which checks them).
  static std::vector<std::string> absolute_paths(const std::vector<std::string>& paths);
  // An agent's executable (--bin) as the daemon takes it: a path from this
  // shell's directory made absolute, a bare name left to the agent's PATH.
  static std::string agent_binary(const std::string& bin);
  // A --since option's time (2h, yesterday, an ISO 8601 date) in unix ms,
  // read against `now_ms`; throws MissionError invalid_argument saying what
  // it takes.
  static std::int64_t since_option(const std::string& text, std::int64_t now_ms);

  // Who is at the shell: the login name the environment gives (the
  // daemon only talks to this uid anyway), as messages and approvals name
  // their sender. Not getpwuid: the CLI is linked statically, and NSS
  // lookups need glibc's shared modules at run time (docs/adr/0002).
  static std::string person_name();

  // Connects only if a daemon is already running.
  std::optional<DaemonClient> connect_if_running() const;
};

}  // namespace mission::cli
