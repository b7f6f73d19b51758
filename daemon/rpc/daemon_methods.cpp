#include "daemon/rpc/daemon_methods.hpp"

#include <unistd.h>

#include "daemon/daemon.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/rpc/control_session.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "shared/control_protocol.hpp"
#include "shared/version.hpp"

namespace mission::daemon {
void from_json(const nlohmann::json& j, HelloRequest& request) {
  request.protocol = j.at("protocol").get<int>();
  if (j.contains("client")) {
    const auto& client = j.at("client");
    request.client_name = client.at("name").get<std::string>();
    request.client_version = client.value("version", "");
  }
}

nlohmann::json handle_hello(MethodContext& context, const HelloRequest& request) {
  if (request.protocol != kControlProtocolVersion) {
    throw MissionError(
        ErrorCode::protocol_mismatch,
        "client speaks control protocol " + std::to_string(request.protocol) + ", missiond " +
            std::string(kVersion) + " speaks " + std::to_string(kControlProtocolVersion),
        "use a mission CLI of the same version as missiond, or restart the daemon with "
        "'mission daemon stop' so the current one is started",
        {{"clientProtocol", request.protocol}, {"daemonProtocol", kControlProtocolVersion}});
  }
  context.session.greet({request.client_name, request.client_version});
  return {{"protocol", kControlProtocolVersion},
          {"server", {{"name", "missiond"}, {"version", kVersion}}},
          {"pid", getpid()}};
}

nlohmann::json handle_daemon_status(MethodContext& context, const EmptyRequest&) {
  Daemon& daemon = context.daemon;
  store::ExecutionRepository executions(daemon.database());
  const RuntimePaths& paths = daemon.paths();
  return {{"running", true},
          {"pid", getpid()},
          {"version", kVersion},
          {"protocol", kControlProtocolVersion},
          {"uptimeMs", daemon.uptime_ms()},
          {"socket", paths.socket.string()},
          {"runtimeDir", paths.runtime_dir.string()},
          {"stateDir", paths.state_dir.string()},
          {"database", paths.database().string()},
          {"schemaVersion", store::schema_version(daemon.database())},
          {"connections", daemon.connection_count()},
          {"executions",
           {{"total", executions.count()},
            {"active", executions.count_in_states(execution::active_states())}}},
          {"watchedTrees", daemon.tree_watches().status()}};
}

nlohmann::json handle_daemon_stop(MethodContext& context, const EmptyRequest&) {
  // Deferred so this reply is queued before the connections are closed.
  context.daemon.schedule_shutdown("daemon.stop");
  return {{"stopping", true}, {"pid", getpid()}};
}

}  // namespace mission::daemon
