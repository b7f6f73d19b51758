#include "daemon/rpc/execution_run_methods.hpp"

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/adapters/bridge.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/execution/marker_instructions.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, ExecutionLaunchRequest& request) {
  request.spec = decode_create_spec(j, Delivery::stdout_marker);
  request.spec.kind = ExecutionKind::launched;
  request.spec.state = ExecutionState::launching;
  if (j.contains("delivery")) request.delivery = j.at("delivery").get<Delivery>();
  request.env = j.value("env", std::map<std::string, std::string>{});
  if (j.contains("bin")) request.bin = j.at("bin").get<std::string>();
  request.detach = j.value("detach", false);
  request.keep_mcp_servers = j.value("keepMcpServers", false);
  if (j.contains("terminal")) {
    const nlohmann::json& terminal = j.at("terminal");
    request.terminal = true;
    request.rows = terminal.value("rows", static_cast<unsigned short>(0));
    request.columns = terminal.value("columns", static_cast<unsigned short>(0));
  }
  request.stdin_answers = j.value("stdinAnswers", false);
}

void from_json(const nlohmann::json& j, ExecutionStopRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.force = j.value("force", false);
}

void from_json(const nlohmann::json& j, ExecutionLogsRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("after")) request.after = j.at("after").get<std::uint64_t>();
  if (j.contains("cursor")) request.cursor = j.at("cursor").get<std::uint64_t>();
  request.limit = j.value("limit", std::size_t{100});
}

void from_json(const nlohmann::json& j, ExecutionObservationsRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.page = decode_list_params(j);
}

namespace {

// The provider's executable: --bin, else MISSION_<ADAPTER>_BIN from the
// agent's environment (relative to its working directory), else the
// adapter's own name, found in the agent's PATH when it is spawned.
std::string provider_binary(const adapters::AgentAdapter& adapter,
                            const ExecutionLaunchRequest& request) {
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
                                                     const execution::CreatedExecution& created,
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
adapters::LaunchPlan prepare_launch(const RuntimePaths& paths, const adapters::AgentAdapter& adapter,
                                    const execution::CreatedExecution& created,
                                    const ExecutionLaunchRequest& request, const std::string& binary,
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
  if (row.delivery == Delivery::mcp_tool && adapter.capabilities.provisioning.requires_runtime_config) {
    launch.bridge = adapters::bridge_entry(adapters::mission_binary(), paths.socket, row.id);
    launch.bridge->token = created.token.value_or("");
  }
  if (row.delivery == Delivery::stdout_marker) {
    launch.marker_instructions = [&row] {
      return execution::marker_instructions(row.id, parse_stored_json(row.descriptor, "execution descriptor"));
    };
  }
  return adapter.prepare_launch(launch);
}

// A launch that never got its process: it fails here, with the reason as
// the last line of its log, as a spawn failure does.
void fail_unstarted(MethodContext& context, const std::string& id, const std::string& reason) {
  store::Database& db = context.services.db;
  execution::ExecutionLogWriter log(context.services.paths.logs_dir(), id);
  log.append('e', "[mission: " + reason + "]\n");
  log.close();
  store::Transaction transaction(db);
  store::ExecutionRow row = execution::AgentExecutionRegistry(db).require(id);
  row.state = ExecutionState::failed;
  row.ended_at = row.updated_at = unix_ms_now();
  store::ExecutionRepository(db).update(row);
  execution::add_execution_event(context.events, db, execution::kExecutionCreated, id);
  transaction.commit();
  // Published here: the launch's error discards what the call would publish.
  context.events.publish_to(context.services.events);
}

}  // namespace

nlohmann::json handle_execution_launch(MethodContext& context, const ExecutionLaunchRequest& request) {
  ControlServices& services = context.services;
  store::Database& db = services.db;
  const adapters::AgentAdapter& adapter = adapters::require_adapter(request.spec.adapter);
  execution::CreateSpec spec = request.spec;
  // Selected before anything exists: an unsupported delivery creates nothing.
  spec.delivery = adapters::select_delivery(
      adapter, request.delivery,
      request.detach ? adapters::LaunchMode::detached : adapters::LaunchMode::attached);
  if (request.stdin_answers && !adapter.capabilities.stdin_lines) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the " + std::string(adapter.name) +
                           " adapter cannot take answers on stdin: its CLI would block on an open stdin",
                       "drop --stdin-answers: answers reach it through its MCP tools and the next "
                       "tool result, or use the generic adapter for a command that reads stdin");
  }
  const std::string binary = provider_binary(adapter, request);
  if (binary.empty() && spec.command.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the generic adapter needs a command",
                       "give the agent's command after --: mission run -- CMD ARGS...");
  }
  // Recorded as asked for; replaced by the full argv once it is prepared.
  if (!binary.empty()) spec.command.insert(spec.command.begin(), binary);

  // The row is committed before anything runs: a process the store does
  // not know of would be nobody's.
  execution::AgentExecutionRegistry registry(db);
  std::optional<execution::CreatedExecution> created;
  {
    store::Transaction transaction(db);
    created = registry.create(spec);
    transaction.commit();
  }
  const std::string& id = created->row.id;

  std::map<std::string, std::string> env = agent_environment(services.paths, *created, request.env);
  adapters::LaunchPlan plan;
  try {
    plan = prepare_launch(services.paths, adapter, *created, request, binary, env);
  } catch (const MissionError& e) {
    fail_unstarted(context, id, std::string(adapter.name) + ": " + e.what());
    throw;
  }
  for (const auto& name : plan.env_unset) env.erase(name);
  for (const auto& [name, value] : plan.env_set) env[name] = value;
  // Named, not positional: a field added to LaunchSpec must not shift the
  // others (stdin_lines once landed in on_terminal that way).
  execution::LaunchSpec launch;
  launch.execution_id = id;
  launch.cwd = spec.cwd;
  launch.argv = plan.argv;
  launch.reads_markers = spec.delivery == Delivery::stdout_marker;
  launch.files = std::move(plan.files);
  launch.stdin_lines = request.stdin_answers;
  for (const auto& [name, value] : env) launch.env.push_back(name + "=" + value);
  launch.on_terminal = request.terminal;
  launch.rows = request.rows;
  launch.columns = request.columns;

  // The command the execution shows is the one that runs. It holds no
  // secret: tokens travel in the environment or the 0600 config only.
  if (plan.argv != spec.command) {
    store::ExecutionRepository(db).set_command(
        id, nlohmann::json(plan.argv).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  // Heard of before the runner reports it running.
  execution::add_execution_event(context.events, db, execution::kExecutionCreated, id);
  context.events.publish_to(services.events);
  try {
    services.launcher.launch(std::move(launch));
  } catch (const MissionError& e) {
    if (adapter.binary.empty()) throw;
    // The adapter chose the binary, so the user may not know which one ran.
    throw MissionError(e.code(), e.what(),
                       "install " + std::string(adapter.name) + "'s '" + std::string(adapter.binary) +
                           "', or name it with --bin PATH or " + adapters::bin_variable(adapter.name) +
                           " ('mission adapters list' shows what is found)",
                       e.details());
  }
  return {{"execution", execution::execution_json(db, registry.require(id))}};
}

nlohmann::json handle_execution_stop(MethodContext& context, const ExecutionStopRequest& request) {
  store::Database& db = context.services.db;
  execution::AgentExecutionRegistry registry(db);
  store::ExecutionRow row = registry.require(request.id);
  if (is_final(row.state)) {
    return {{"stopping", false}, {"execution", execution::execution_json(db, row)}};
  }
  if (context.services.launcher.stop(request.id, request.force)) {
    return {{"stopping", true}, {"execution", execution::execution_json(db, row)}};
  }
  // Nothing of ours runs for it (created or external): it ends here.
  store::Transaction transaction(db);
  registry.cancel_unowned(request.id);
  execution::add_execution_event(context.events, db, execution::kExecutionUpdated, request.id);
  transaction.commit();
  return {{"stopping", false}, {"execution", execution::execution_json(db, registry.require(request.id))}};
}

nlohmann::json handle_execution_logs(MethodContext& context, const ExecutionLogsRequest& request) {
  store::ExecutionRow row = execution::AgentExecutionRegistry(context.services.db).require(request.id);
  execution::LogPage page = execution::read_execution_log(context.services.paths.logs_dir(), request.id,
                                                          {request.after, request.cursor, request.limit});
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& line : page.lines) {
    lines.push_back({{"n", line.number},
                     {"stream", line.stream == 'e' ? "stderr" : "stdout"},
                     {"text", line.text}});
  }
  nlohmann::json result = {{"lines", std::move(lines)},
                           {"lastLine", page.last_line},
                           {"state", row.state},
                           {"final", is_final(row.state)}};
  if (page.next_cursor) result["nextCursor"] = *page.next_cursor;
  // So a follower learns how the agent ended without asking again.
  if (row.exit_code) result["exitCode"] = *row.exit_code;
  if (row.exit_signal) result["exitSignal"] = *row.exit_signal;
  return result;
}

nlohmann::json handle_execution_observations(MethodContext& context,
                                             const ExecutionObservationsRequest& request) {
  store::Database& db = context.services.db;
  execution::AgentExecutionRegistry(db).require(request.id);
  // A ledger reads oldest first: without cursor or after it starts at the beginning.
  ListParams params = request.page;
  if (!params.cursor && !params.after) params.after = 0;
  store::PageRequest wanted = page_request(params, limits::kMaxPageItems);
  auto page = store::ObservationRepository(db).page(request.id, wanted);
  nlohmann::json observations = nlohmann::json::array();
  for (const auto& row : page.rows) observations.push_back(execution::observation_json(row));
  nlohmann::json out = nlohmann::json::object();
  put_page(out, "observations", std::move(observations), page.positions, page.more, wanted);
  return out;
}

nlohmann::json handle_execution_instructions(MethodContext& context, const ExecutionIdRequest& request) {
  store::ExecutionRow row = execution::AgentExecutionRegistry(context.services.db).require(request.id);
  nlohmann::json descriptor = parse_json_or_discarded(row.descriptor);
  return {{"agentExecutionId", row.id},
          {"delivery", row.delivery},
          {"text", execution::marker_instructions(row.id, descriptor)}};
}

}  // namespace mission::daemon
