#include "daemon/rpc/execution_run_methods.hpp"

#include "daemon/adapters/adapter.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/execution/marker_instructions.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::execution {

void from_json(const nlohmann::json& j, AgentLaunchRequest& request) {
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
  if (j.contains("prompt")) request.prompt = j.at("prompt").get<std::string>();
  request.keep_open = j.value("keepOpen", false);
  // Checked again here: the control API is not only the CLI's.
  if (j.contains("permissionPolicy"))
    request.permission_policy = policy_from_json(j.at("permissionPolicy"));
  request.confined = j.value("sandbox", std::string("on")) != "off";
  // The schema allows "on" and "none" only.
  request.network = sandbox::network_from_name(j.value("network", std::string("on")))
                        .value_or(sandbox::Network::on);
  for (const auto& path : j.value("allowWrite", std::vector<std::string>{}))
    request.allow_write.emplace_back(path);
  for (const auto& path : j.value("hide", std::vector<std::string>{}))
    request.hide.emplace_back(path);
}

}  // namespace mission::daemon::execution

namespace mission::daemon {

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

nlohmann::json handle_execution_launch(MethodContext& context,
                                       const ExecutionLaunchRequest& request) {
  // What the call itself made is published before the launch's own events.
  context.events.publish_to(context.services.events);
  execution::AgentLaunchServices services{context.services.db, context.services.events,
                                          context.services.launcher, context.services.paths};
  const std::string id = execution::launch_agent(services, request);
  store::Database& db = context.services.db;
  return {{"execution",
           execution::execution_json(db, execution::AgentExecutionRegistry(db).require(id))}};
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
  return {{"stopping", false},
          {"execution", execution::execution_json(db, registry.require(request.id))}};
}

nlohmann::json handle_execution_logs(MethodContext& context, const ExecutionLogsRequest& request) {
  store::ExecutionRow row =
      execution::AgentExecutionRegistry(context.services.db).require(request.id);
  execution::LogPage page =
      execution::read_execution_log(context.services.paths.logs_dir(), request.id,
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
  // A page that reaches the end of a live log also shows what follows its
  // last line: a prompt waits without a newline, and a reader wants to see it.
  const bool at_end = page.lines.empty()
                          ? request.after.value_or(0) >= page.last_line && !request.cursor
                          : page.lines.back().number == page.last_line;
  if (at_end && !is_final(row.state)) {
    nlohmann::json partial = nlohmann::json::array();
    for (const auto& line : context.services.launcher.partial_lines(row.id)) {
      partial.push_back(
          {{"stream", line.stream == 'e' ? "stderr" : "stdout"}, {"text", line.text}});
    }
    if (!partial.empty()) result["partialLines"] = std::move(partial);
  }
  // So a follower learns how the agent ended without asking again.
  if (row.exit_code) result["exitCode"] = *row.exit_code;
  if (row.exit_signal) result["exitSignal"] = *row.exit_signal;
  // Streaming JSON the adapter asked for: the CLI shows it as steps.
  nlohmann::json command = nlohmann::json::parse(row.command, nullptr, false);
  if (command.is_array()) {
    std::vector<std::string> argv;
    for (const auto& word : command) {
      if (word.is_string()) argv.push_back(word.get<std::string>());
    }
    const std::string_view format = adapters::output_format_of(row.adapter, argv);
    if (!format.empty()) result["outputFormat"] = format;
  }
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

nlohmann::json handle_execution_instructions(MethodContext& context,
                                             const ExecutionIdRequest& request) {
  store::ExecutionRow row =
      execution::AgentExecutionRegistry(context.services.db).require(request.id);
  nlohmann::json descriptor = parse_json_or_discarded(row.descriptor);
  return {{"agentExecutionId", row.id},
          {"delivery", row.delivery},
          {"text", execution::marker_instructions(row.id, descriptor)}};
}

}  // namespace mission::daemon
