#include "daemon/execution/agent_launch.hpp"

#include <fstream>
#include <sstream>

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/adapters/bridge.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/execution/marker_instructions.hpp"
#include "daemon/sandbox/allowed_writes.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"
#include "daemon/sandbox/secret_paths.hpp"
#include "daemon/store/execution_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::execution {
namespace {

// The provider's executable: --bin, else MISSION_<ADAPTER>_BIN from the
// agent's environment (relative to its working directory), else the
// adapter's own name, found in the agent's PATH when it is spawned.
std::string provider_binary(const adapters::AgentAdapter& adapter,
                            const AgentLaunchRequest& request) {
  if (adapter.binary.empty()) {
    if (request.bin) {
      throw MissionError(ErrorCode::invalid_argument,
                         "the generic adapter takes no --bin: the words after -- are the command",
                         "drop --bin and give the whole command after --");
    }
    return {};
  }
  if (request.bin) return *request.bin;
  auto set = request.env.find(adapters::bin_variable(adapter.name));
  if (set == request.env.end() || set->second.empty()) return std::string(adapter.binary);
  if (set->second.find('/') == std::string::npos) return set->second;
  return (std::filesystem::path(request.spec.cwd) / set->second).lexically_normal().string();
}

// The environment the daemon gives every launched agent: the caller's,
// plus its execution's id, the socket and, for mcp-tool, its token.
std::map<std::string, std::string> agent_environment(const RuntimePaths& paths,
                                                     const CreatedExecution& created,
                                                     std::map<std::string, std::string> env) {
  env["MISSION_AGENT_EXECUTION_ID"] = created.row.id;
  env["MISSION_SOCKET"] = paths.socket.string();
  if (created.token) {
    env["MISSION_MCP_TOKEN"] = *created.token;
  } else {
    env.erase("MISSION_MCP_TOKEN");  // never one from another execution
  }
  return env;
}

// Asks the adapter for the launch of `created`. Throws MissionError when it
// cannot be provisioned; the caller fails the launch, with no fallback.
adapters::LaunchPlan prepare_launch(const RuntimePaths& paths,
                                    const adapters::AgentAdapter& adapter,
                                    const CreatedExecution& created,
                                    const AgentLaunchRequest& request, const std::string& binary,
                                    const std::map<std::string, std::string>& env) {
  const store::ExecutionRow& row = created.row;
  adapters::LaunchRequest launch;
  launch.execution_id = row.id;
  launch.delivery = row.delivery;
  launch.binary = binary;
  launch.arguments = request.spec.command;
  launch.env = env;
  launch.files_dir = paths.launch_dir() / row.id;
  launch.keep_mcp_servers = request.keep_mcp_servers;
  launch.on_terminal = request.terminal;
  launch.confined = request.confined;
  launch.agent_home = paths.agent_home_dir(adapter.name);
  if (row.delivery == Delivery::mcp_tool &&
      adapter.capabilities.provisioning.requires_runtime_config) {
    launch.bridge = adapters::bridge_entry(adapters::mission_binary(), paths.socket, row.id);
    launch.bridge->token = created.token.value_or("");
  }
  if (row.delivery == Delivery::stdout_marker) {
    launch.marker_instructions = [&row] {
      return marker_instructions(row.id, parse_stored_json(row.descriptor, "execution descriptor"));
    };
  }
  return adapter.prepare_launch(launch);
}

// A launch that never got its process: it fails here, with the reason as
// the last line of its log, as a spawn failure does.
void fail_unstarted(AgentLaunchServices& services, const std::string& id,
                    const std::string& reason) {
  store::Database& db = services.db;
  ExecutionLogWriter log(services.paths.logs_dir(), id);
  log.append('e', "[mission: " + reason + "]\n");
  log.close();
  events::EventBatch events(services.events);
  store::Transaction transaction(db);
  store::ExecutionRow row = AgentExecutionRegistry(db).require(id);
  row.state = ExecutionState::failed;
  row.ended_at = row.updated_at = unix_ms_now();
  store::ExecutionRepository(db).update(row);
  add_execution_event(events, db, kExecutionCreated, id);
  transaction.commit();
  events.publish_to(services.events);
}

// The prompt of an ACP session: the request's, else the task's that a
// workflow run put in the agent's environment. Throws MissionError when
// there is none, before anything is created.
std::string acp_prompt(const AgentLaunchRequest& request) {
  if (request.prompt) return *request.prompt;
  if (auto file = request.env.find("MISSION_TASK_PROMPT_FILE"); file != request.env.end()) {
    std::ifstream in(file->second, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (in && !text.str().empty()) return text.str();
  }
  if (auto prompt = request.env.find("MISSION_TASK_PROMPT"); prompt != request.env.end()) {
    return prompt->second;
  }
  throw MissionError(ErrorCode::invalid_argument,
                     "an agent driven over ACP needs a prompt for its session",
                     "give it with --prompt TEXT");
}

// mission's MCP bridge as an ACP McpServer entry of session/new (stdio).
nlohmann::json acp_mcp_servers(const RuntimePaths& paths, const CreatedExecution& created) {
  adapters::BridgeEntry bridge =
      adapters::bridge_entry(adapters::mission_binary(), paths.socket, created.row.id);
  bridge.token = created.token.value_or("");
  nlohmann::json env = nlohmann::json::array();
  for (const auto& [name, value] : adapters::bridge_env(bridge, "")) {
    env.push_back({{"name", name}, {"value", value}});
  }
  return nlohmann::json::array({{{"name", adapters::kServerName},
                                 {"command", bridge.command},
                                 {"args", bridge.args},
                                 {"env", env}}});
}

}  // namespace

std::vector<std::filesystem::path> hidden_paths(const RuntimePaths& paths, std::string_view adapter,
                                                const std::map<std::string, std::string>& env,
                                                const std::vector<std::filesystem::path>& hide) {
  std::vector<std::filesystem::path> hidden;
  auto home = env.find("HOME");
  if (home != env.end()) hidden = sandbox::secret_paths(home->second, adapter);
  hidden.push_back(paths.state_dir);
  hidden.push_back(paths.runtime_dir);
  hidden.insert(hidden.end(), hide.begin(), hide.end());
  return hidden;
}

std::vector<std::filesystem::path> state_paths(const adapters::AgentAdapter& adapter,
                                               const std::map<std::string, std::string>& env,
                                               bool create) {
  auto absolute = [&env](std::string_view name) -> std::optional<std::filesystem::path> {
    auto set = env.find(std::string(name));
    if (set == env.end() || set->second.empty() || set->second.front() != '/') return std::nullopt;
    return std::filesystem::path(set->second);
  };
  const std::optional<std::filesystem::path> home = absolute("HOME");
  std::vector<std::filesystem::path> paths;
  for (const adapters::StatePath& state : adapter.state_paths) {
    std::optional<std::filesystem::path> base;
    if (!state.variable.empty()) base = absolute(state.variable);
    if (!base && home) base = *home / state.home_default;
    if (!base) continue;
    const std::filesystem::path path =
        (state.name.empty() ? *base : *base / state.name).lexically_normal();
    if (create && state.folder) {
      std::error_code ec;
      if (std::filesystem::create_directories(path, ec)) {
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
      }
    }
    paths.push_back(path);
  }
  return paths;
}

std::string launch_agent(AgentLaunchServices& services, const AgentLaunchRequest& request,
                         const BeforeLaunch& before_launch) {
  store::Database& db = services.db;
  const adapters::AgentAdapter& adapter = adapters::require_adapter(request.spec.adapter);
  CreateSpec spec = request.spec;
  // Selected before anything exists: an unsupported delivery creates nothing.
  spec.delivery = adapters::select_delivery(
      adapter, request.delivery,
      request.detach ? adapters::LaunchMode::detached : adapters::LaunchMode::attached);
  if (request.stdin_answers && !adapter.capabilities.stdin_lines) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "the " + std::string(adapter.name) +
            " adapter cannot take answers on stdin: its CLI would block on an open stdin",
        "drop --stdin-answers: answers reach it through its MCP tools and the next "
        "tool result, or use the generic adapter for a command that reads stdin");
  }
  if (!request.allow_write.empty()) {
    if (!request.confined) {
      throw MissionError(ErrorCode::invalid_argument,
                         "--allow-write has no effect with --sandbox off: the agent writes "
                         "wherever you can",
                         "drop one of them");
    }
    sandbox::check_allowed_writes(request.allow_write, {});
  }
  if (!request.hide.empty()) {
    if (!request.confined) {
      throw MissionError(ErrorCode::invalid_argument,
                         "--hide has no effect with --sandbox off: the agent reads whatever "
                         "you can",
                         "drop one of them");
    }
    sandbox::check_hidden_paths(request.hide);
  }
  const std::string binary = provider_binary(adapter, request);
  if (binary.empty() && spec.command.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the generic adapter needs a command",
                       "give the agent's command after --: mission run -- CMD ARGS...");
  }
  // Over ACP the prompt is known before anything is created.
  const bool over_acp = adapter.output_format != nullptr &&
                        adapter.output_format(spec.command) == adapters::kAcpStreamFormat;
  std::optional<std::string> prompt;
  if (over_acp) prompt = acp_prompt(request);
  if (request.keep_open && !over_acp) {
    throw MissionError(ErrorCode::invalid_argument,
                       "--keep-open is for agents driven over ACP; the " +
                           std::string(adapter.name) + " adapter's session is its process",
                       "leave --keep-open out, or use --adapter acp");
  }
  if (!request.permission_policy.empty() && !over_acp) {
    throw MissionError(ErrorCode::invalid_argument,
                       "--allow, --deny and --policy answer the permission requests of agents "
                       "driven over ACP; the " +
                           std::string(adapter.name) + " adapter makes none",
                       "leave them out, or use --adapter acp");
  }
  if (request.prompt && !over_acp) {
    throw MissionError(ErrorCode::invalid_argument,
                       "--prompt is for agents driven over ACP; the " + std::string(adapter.name) +
                           " adapter takes its prompt after --",
                       "give the prompt after --, or use --adapter acp");
  }
  // Recorded as asked for; replaced by the full argv once it is prepared.
  if (!binary.empty()) spec.command.insert(spec.command.begin(), binary);

  // The row is committed before anything runs: a process the store does
  // not know of would be nobody's.
  AgentExecutionRegistry registry(db);
  std::optional<CreatedExecution> created;
  {
    store::Transaction transaction(db);
    created = registry.create(spec);
    if (before_launch) before_launch(*created);
    transaction.commit();
  }
  const std::string id = created->row.id;

  std::map<std::string, std::string> env = agent_environment(services.paths, *created, request.env);
  adapters::LaunchPlan plan;
  try {
    plan = prepare_launch(services.paths, adapter, *created, request, binary, env);
  } catch (const MissionError& e) {
    fail_unstarted(services, id, std::string(adapter.name) + ": " + e.what());
    throw;
  }
  for (const auto& name : plan.env_unset) env.erase(name);
  for (const auto& [name, value] : plan.env_set) env[name] = value;
  // Named, not positional: a field added to LaunchSpec must not shift the
  // others (stdin_lines once landed in on_terminal that way).
  LaunchSpec launch;
  launch.execution_id = id;
  launch.cwd = spec.cwd;
  launch.argv = plan.argv;
  launch.reads_markers = spec.delivery == Delivery::stdout_marker;
  if (adapter.output_format != nullptr) launch.stream_format = adapter.output_format(plan.argv);
  launch.adapter = std::string(adapter.name);
  launch.files = std::move(plan.files);
  launch.stdin_lines = request.stdin_answers;
  launch.confined = request.confined;
  launch.network = request.network;
  if (launch.confined) {
    launch.writable = state_paths(adapter, env, true);
    launch.writable.insert(launch.writable.end(), request.allow_write.begin(),
                           request.allow_write.end());
    launch.hidden = hidden_paths(services.paths, adapter.name, env, request.hide);
    // Its own launch files and prompt, beneath the hidden runtime folder.
    launch.readable.push_back(services.paths.launch_dir() / id);
    if (auto prompt = env.find("MISSION_TASK_PROMPT_FILE"); prompt != env.end())
      launch.readable.emplace_back(prompt->second);
  }
  for (const auto& [name, value] : env) launch.env.push_back(name + "=" + value);
  launch.on_terminal = request.terminal;
  if (over_acp) {
    try {
      launch.acp =
          AcpSession::Start{spec.cwd, acp_mcp_servers(services.paths, *created), std::move(*prompt),
                            request.keep_open, request.permission_policy};
    } catch (const MissionError& e) {
      fail_unstarted(services, id, std::string(adapter.name) + ": " + e.what());
      throw;
    }
  }
  launch.rows = request.rows;
  launch.columns = request.columns;

  // The command the execution shows is the one that runs. It holds no
  // secret: tokens travel in the environment or the 0600 config only.
  if (plan.argv != spec.command) {
    store::ExecutionRepository(db).set_command(
        id,
        nlohmann::json(plan.argv).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  // How it runs, for exec show and a run's report; a launch the policy
  // refuses is failed by the runner with the reason.
  store::ExecutionRepository(db).set_sandbox(
      id, sandbox::confinement_state(request.confined) +
              sandbox::allowed_writes_note(request.allow_write) +
              sandbox::hidden_paths_note(request.hide) + sandbox::network_note(request.network));
  // Heard of before the runner reports it running.
  {
    events::EventBatch events(services.events);
    add_execution_event(events, db, kExecutionCreated, id);
    events.publish_to(services.events);
  }
  try {
    services.launcher.launch(std::move(launch));
  } catch (const MissionError& e) {
    if (adapter.binary.empty()) throw;
    // The adapter chose the binary, so the user may not know which one ran.
    throw MissionError(e.code(), e.what(),
                       "install " + std::string(adapter.name) + "'s '" +
                           std::string(adapter.binary) + "', or name it with --bin PATH or " +
                           adapters::bin_variable(adapter.name) +
                           " ('mission adapters list' shows what is found)",
                       e.details());
  }
  return id;
}

}  // namespace mission::daemon::execution
