// Any agent that speaks the Agent Client Protocol on its stdio
// (`mission run --adapter acp --prompt TEXT -- CMD ARGS...`): the words
// after -- are the whole argv. The daemon drives it (daemon/execution/
// acp_session.hpp): mission's MCP server reaches it in session/new's
// mcpServers, not in a config file, so its signals still arrive over
// mcp-tool; the prompt goes in session/prompt.
//
// Its CLI is not known, so neither are the folders it keeps its state in
// (each other adapter names its CLI's). Confined, it gets one folder of
// the daemon's, MISSION_AGENT_HOME (<state dir>/agent-home/acp, kept
// between launches: a login or a cache made once stays), with the XDG base
// folders inside it: config, data, cache, state. Those are what it may
// write besides its worktree and TMPDIR; HOME stays the person's, readable
// (its git identity, its dotfiles) and not writable. Unconfined
// (--sandbox off) it runs with the person's own folders.

#include <map>
#include <string>

#include "daemon/adapters/acp_launch.hpp"
#include "daemon/adapters/adapter.hpp"
#include "shared/error_code.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool};

// The daemon's folder, which every launch sets (the fallback is where it
// is by default).
constexpr StatePath kStatePaths[] = {
    {kAgentHomeVariable, ".local/state/mission/agent-home/acp", "", true}};

// The XDG base folders, each a folder of the same name in the agent's home.
constexpr std::pair<const char*, const char*> kXdgFolders[] = {{"XDG_CONFIG_HOME", "config"},
                                                               {"XDG_DATA_HOME", "data"},
                                                               {"XDG_CACHE_HOME", "cache"},
                                                               {"XDG_STATE_HOME", "state"}};

LaunchPlan prepare(const LaunchRequest& request) {
  if (request.arguments.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the acp adapter needs the agent's command",
                       "give it after --: mission run --adapter acp --prompt TEXT -- CMD ARGS...");
  }
  LaunchPlan plan = acp_launch_plan(request, {});
  if (request.confined && !request.agent_home.empty()) {
    plan.env_set[std::string(kAgentHomeVariable)] = request.agent_home.string();
    for (const auto& [variable, folder] : kXdgFolders)
      plan.env_set[variable] = (request.agent_home / folder).string();
  }
  return plan;
}

}  // namespace

extern const AgentAdapter kAcpAdapter;
const AgentAdapter kAcpAdapter = {
    "acp",
    "",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    nullptr,
    nullptr,
    acp_output_format,
    kStatePaths,
};

}  // namespace mission::daemon::adapters
