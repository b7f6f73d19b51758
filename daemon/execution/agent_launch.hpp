#pragma once
// Launching an agent through its adapter: the execution row committed
// first, MCP provisioned or marker instructions given, then the process
// spawned. The one path `mission run` (execution.launch) and the workflow
// runner (daemon/runs/) both take, so an agent a run dispatches is launched
// exactly as one a person runs.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/adapters/adapter.hpp"
#include "daemon/events/event_sink.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "daemon/store/database.hpp"
#include "shared/permission_policy.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::execution {

struct AgentLaunchRequest {
  CreateSpec spec;                   // spec.command: the user's words (the whole argv for generic)
  std::optional<Delivery> delivery;  // none: the adapter's preferred one for the mode
  std::map<std::string, std::string> env;
  std::optional<std::string> bin;  // the provider's executable instead of MISSION_<A>_BIN or PATH
  bool detach = false;             // the launch mode: nobody follows the output
  bool keep_mcp_servers = false;
  // On a pseudo-terminal of the daemon's, of this size (0: the default).
  bool terminal = false;
  unsigned short rows = 0;
  unsigned short columns = 0;
  bool stdin_answers = false;                       // answers and messages as stdin lines (ADR 17)
  bool confined = true;                             // false: --sandbox off (daemon/sandbox/)
  sandbox::Network network = sandbox::Network::on;  // none: --network none
  // --allow-write: writable beyond the profile, checked by launch_agent.
  std::vector<std::filesystem::path> allow_write;
  // --hide: not readable beyond the secrets every confined launch hides.
  std::vector<std::filesystem::path> hide;
  // For an agent driven over ACP: the prompt of its session. When absent,
  // the task's prompt a workflow run gives (MISSION_TASK_PROMPT_FILE, else
  // MISSION_TASK_PROMPT in env).
  std::optional<std::string> prompt;
  // Over ACP: the session stays open between turns (AcpSession::Start).
  bool keep_open = false;
  // Over ACP: the permission requests its rules answer (--allow, --deny,
  // --policy; docs/adr/0053). Refused for any other agent.
  PermissionPolicy permission_policy;
};

// What launching needs of the daemon.
struct AgentLaunchServices {
  store::Database& db;
  events::EventSink& events;
  Launcher& launcher;
  const RuntimePaths& paths;
};

// Runs inside the transaction that records the new execution, before
// anything is provisioned or spawned: what must be true by the time the
// agent starts (a claim, a grant) is written here.
using BeforeLaunch = std::function<void(const CreatedExecution& created)>;

// The adapter's state paths in the agent's environment `env`, its folders
// created (0700) when missing and `create` is set: a CLI run for the first
// time fills them, and a confined agent could not create them itself. A
// path that is not absolute (no HOME) is left out.
std::vector<std::filesystem::path> state_paths(const adapters::AgentAdapter& adapter,
                                               const std::map<std::string, std::string>& env,
                                               bool create);

// What a confined launch of `adapter` (empty: a check) with environment
// `env` must not read: the person's secrets under its HOME
// (sandbox/secret_paths.hpp), the daemon's state and runtime folders (the
// database, other executions' logs, launch files and tokens), and `hide`
// (--hide). Its socket stays reachable: connecting is not reading.
// docs/adr/0051.
std::vector<std::filesystem::path> hidden_paths(const RuntimePaths& paths, std::string_view adapter,
                                                const std::map<std::string, std::string>& env,
                                                const std::vector<std::filesystem::path>& hide);

// Launches the agent and returns its execution's id. Throws MissionError
// when the adapter, its delivery or its binary cannot be used; an
// execution already recorded is then failed, with the reason ending its log.
std::string launch_agent(AgentLaunchServices& services, const AgentLaunchRequest& request,
                         const BeforeLaunch& before_launch = {});

}  // namespace mission::daemon::execution
