#pragma once
// An agent adapter: what one provider (Claude Code, Codex, Copilot CLI,
// OpenCode, Pi, any command) can do with mission's signals, and how to
// launch it so that it does. What a provider supports and what one launch
// selects are kept apart (docs/adr/0006-agent-adapters.md): the adapter
// declares, the launch chooses, and the execution records the choice.
//
// Adding a provider means one file under daemon/adapters/ defining its
// AgentAdapter and one entry in adapter_table.cpp.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/adapters/launch_files.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {

// `mission run` follows the agent's output; `mission run --detach` (or any
// client that does not wait) leaves it to run on its own.
enum class LaunchMode { attached, detached };

// How mission's MCP server reaches the provider's MCP client.
struct Provisioning {
  // Each launch needs its own config naming mission's server (a file, a
  // flag or a variable), written before the provider starts.
  bool requires_runtime_config = false;
  // Its MCP client can start `mission mcp connect` as a stdio server.
  bool supports_stdio_bridge = false;
  // It takes the tools from tools/list when it connects, so the session's
  // catalog reaches the model without a config naming each tool.
  bool supports_dynamic_tools = false;
};

struct Capabilities {
  std::span<const Delivery> deliveries;  // supported
  Delivery preferred_attached;           // chosen when none is asked for
  Delivery preferred_detached;
  Provisioning provisioning;
  // It can be launched with a pipe on stdin and reads answers and
  // follow-ups there as lines (`--stdin-answers`, ADR 17). Agent CLIs that
  // would block on an open stdin keep /dev/null.
  bool stdin_lines = false;
};

// The stdio server entry an agent's MCP config names: the bridge
// `mission mcp connect [--agent-execution ID]` with MISSION_SOCKET and, for
// one execution, MISSION_MCP_TOKEN in its environment.
struct BridgeEntry {
  std::string command;            // absolute path of the mission binary
  std::vector<std::string> args;  // mcp connect [--agent-execution ID]
  std::string socket;             // the daemon socket, as MISSION_SOCKET
  // The session token, written only into a launch's 0600 config. Empty when
  // the bridge needs none (no --agent-execution) or when `token_from_env`.
  std::string token;
  // A config a user pastes by hand: it refers to MISSION_MCP_TOKEN in the
  // agent's own environment instead of holding a secret.
  bool token_from_env = false;
};

// The name mission's server has in every agent config (tools appear to the
// model as mcp__mission__progress, mission_progress, ...).
inline constexpr std::string_view kServerName = "mission";

struct LaunchRequest {
  std::string execution_id;
  Delivery delivery = Delivery::stdout_marker;  // the selected one
  std::string binary;                           // the provider's executable (unused by generic)
  std::vector<std::string> arguments;           // the user's words after --
  std::map<std::string, std::string> env;       // the agent's environment before the plan applies
  std::optional<BridgeEntry> bridge;  // for mcp-tool: the server to provision, token included
  // For stdout-marker: renders what to tell the agent. Called only by the
  // adapters that pass it on (generic does not), so a plain launch skips it.
  std::function<std::string()> marker_instructions;
  std::filesystem::path files_dir;  // this launch's private dir (created on first write)
  bool keep_mcp_servers = false;    // keep the agent's own MCP servers beside mission's
  // It runs on a terminal of the daemon's (interactive); otherwise a
  // headless run may be asked for streaming JSON a person can follow.
  bool on_terminal = false;
  // It runs under mission's confinement (daemon/sandbox/): a CLI whose own
  // sandbox cannot start inside it is told to leave its own off.
  bool confined = false;
  // The daemon's folder for this adapter's agents' state
  // (RuntimePaths::agent_home_dir), for an adapter that cannot name its
  // CLI's own (acp).
  std::filesystem::path agent_home;
};

// What to run. The cleanup is `files.remove()`, also done by its destructor.
struct LaunchPlan {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_unset;
  LaunchFiles files;
};

// What a user pastes into an agent's own config to add mission by hand.
struct ManualConfig {
  std::string format;  // json or toml
  std::string target;  // where it goes
  std::string text;    // ends with a newline
};

// A place its CLI writes outside the worktree (configuration, sessions,
// caches): writable under the confinement profile (daemon/sandbox/). The
// path is `name` in the folder `variable` names in the agent's
// environment, else in `home_default` under its HOME. A folder is created
// before the launch if it is missing, so a first run can fill it.
struct StatePath {
  std::string_view variable;      // CODEX_HOME, XDG_DATA_HOME, ...; empty: none
  std::string_view home_default;  // relative to HOME; empty: HOME itself
  std::string_view name;          // empty: the folder itself
  bool folder = true;
};

// The variable naming an agent's folder of the daemon's (LaunchRequest::
// agent_home) in its environment, for an adapter that gives it one.
inline constexpr std::string_view kAgentHomeVariable = "MISSION_AGENT_HOME";

struct AgentAdapter {
  std::string_view name;    // --adapter NAME, and the execution's adapter
  std::string_view binary;  // default executable, found in PATH; empty: the command is given
  Capabilities capabilities;
  // Builds one launch for request.delivery, writing any config into
  // request.files_dir. Throws MissionError when that delivery cannot be
  // provisioned: the launch then fails; it never falls back to another.
  LaunchPlan (*prepare_launch)(const LaunchRequest& request);
  // nullptr for a provider without an MCP client.
  ManualConfig (*manual_config)(const BridgeEntry& bridge);
  // The same for MCP over Streamable HTTP at `url` (missiond --http), the
  // token taken from MISSION_MCP_TOKEN in the agent's environment; nullptr
  // when the provider's client cannot reach an HTTP server.
  ManualConfig (*remote_config)(const std::string& url);
  // The streaming JSON an execution's command line asks the provider for
  // (a format of shared/agent_stream.hpp: `mission run` and `exec logs`
  // render it as steps), empty for text; nullptr when it prints only text.
  std::string_view (*output_format)(const std::vector<std::string>& argv);
  // What its CLI writes outside the worktree (docs/adr/0036 lists them).
  std::span<const StatePath> state_paths = {};
};

// The output format of an agent driven over the Agent Client Protocol: its
// stdout is JSON-RPC, which the daemon reads as a session
// (daemon/execution/acp_session.hpp) and `exec logs` renders as steps.
inline constexpr std::string_view kAcpStreamFormat = "acp";

// The output format of a command `adapter_name` launched (empty for text
// or an adapter not known).
std::string_view output_format_of(std::string_view adapter_name,
                                  const std::vector<std::string>& argv);

// Whether `argv` holds option `name` (alone or as name=value).
bool has_option(const std::vector<std::string>& argv, std::string_view name);
// The value of option `name` in `argv` ("name value" or "name=value").
std::optional<std::string> option_value(const std::vector<std::string>& argv,
                                        std::string_view name);

// Whether `adapter` supports `delivery`.
bool supports(const AgentAdapter& adapter, Delivery delivery);

// The delivery one launch uses: `requested` when given, which the adapter
// must support (else invalid_argument naming the ones it does), otherwise
// its preferred delivery for `mode`.
Delivery select_delivery(const AgentAdapter& adapter, std::optional<Delivery> requested,
                         LaunchMode mode);

// MISSION_<NAME>_BIN, upper case with '-' as '_': the variable that names
// an adapter's executable instead of PATH.
std::string bin_variable(std::string_view adapter_name);

// The bridge's environment as an agent config lists it: MISSION_SOCKET and,
// when there is one, MISSION_MCP_TOKEN (the token, or `token_placeholder`
// when bridge.token_from_env).
std::map<std::string, std::string> bridge_env(const BridgeEntry& bridge,
                                              std::string_view token_placeholder);

// request.bridge, which an mcp-tool launch always has (internal error if not).
const BridgeEntry& require_bridge(const LaunchRequest& request);

}  // namespace mission::daemon::adapters
