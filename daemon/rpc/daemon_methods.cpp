#include "daemon/rpc/daemon_methods.hpp"

#include <unistd.h>

#include "daemon/coordination/permission_prompts.hpp"
#include "daemon/execution/retention.hpp"
#include "daemon/rpc/control_session.hpp"
#include "daemon/sandbox/confinement.hpp"
#include "daemon/sandbox/kernel_support.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/idempotency_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "shared/clock.hpp"
#include "shared/control_protocol.hpp"
#include "shared/version.hpp"

namespace mission::daemon {
namespace {

// Whether agents launched now are confined; when they are not, the warning
// every launch carries (mission status repeats it).
nlohmann::json sandbox_status() {
  const sandbox::KernelSupport& support = sandbox::kernel_support();
  nlohmann::json status = {{"policy", sandbox::name_of(sandbox::policy())},
                           {"landlockAbi", support.landlock_abi},
                           {"confined", support.landlock_abi > 0}};
  if (support.landlock_abi == 0) {
    status["warning"] =
        sandbox::policy() == sandbox::SandboxPolicy::require
            ? "agents are not launched (missiond --sandbox require): " + support.landlock_missing
            : sandbox::unconfined_warning(support);
  }
  return status;
}

}  // namespace

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
  context.session().greet({request.client_name, request.client_version});
  return {{"protocol", kControlProtocolVersion},
          {"server", {{"name", "missiond"}, {"version", kVersion}}},
          {"pid", getpid()}};
}

nlohmann::json handle_daemon_status(MethodContext& context, const EmptyRequest&) {
  ControlServices& services = context.services;
  const store::ExecutionRepository::Counts executions =
      store::ExecutionRepository(services.db).count(active_execution_states());
  const RuntimePaths& paths = services.paths;
  return {{"running", true},
          {"pid", getpid()},
          {"version", kVersion},
          {"protocol", kControlProtocolVersion},
          {"uptimeMs", services.daemon.uptime_ms()},
          {"socket", paths.socket.string()},
          {"runtimeDir", paths.runtime_dir.string()},
          {"stateDir", paths.state_dir.string()},
          {"database", paths.database().string()},
          // The daemon migrated the database to this version before it
          // listened, and no other process may write it while it runs.
          {"schemaVersion", store::latest_schema_version()},
          {"connections", services.daemon.connection_count()},
          {"http", services.daemon.http_address().empty()
                       ? nlohmann::json()
                       : nlohmann::json(services.daemon.http_address())},
          {"executions",
           {{"total", executions.total},
            {"active", executions.in_states},
            {"running", services.launcher.running()},
            // Menus read from their terminals, each waiting for a person.
            {"awaitingPermission", coordination::open_permission_prompts(services.db).size()}}},
          {"watchedTrees", services.trees.status()},
          {"sandbox", sandbox_status()}};
}

nlohmann::json handle_daemon_stop(MethodContext& context, const EmptyRequest&) {
  // Deferred so this reply is queued before the connections are closed.
  context.services.daemon.schedule_shutdown("daemon.stop");
  return {{"stopping", true}, {"pid", getpid()}};
}

nlohmann::json handle_board_open(MethodContext& context, const EmptyRequest&) {
  return context.services.daemon.open_board();
}

void from_json(const nlohmann::json& j, GcRequest& request) {
  request.dry_run = j.value("dryRun", false);
}

nlohmann::json handle_daemon_gc(MethodContext& context, const GcRequest& request) {
  ControlServices& services = context.services;
  const std::int64_t now = unix_ms_now();
  store::IdempotencyRepository records(services.db);
  const std::int64_t request_ids =
      request.dry_run ? records.count_expired(now) : records.prune(now);
  execution::SweepReport report =
      execution::sweep(services.db, services.paths, services.retention, now, request.dry_run);
  return {{"dryRun", request.dry_run},
          {"executionsRemoved", report.executions_removed},
          {"observationsRemoved", report.observations_removed},
          {"logsRemoved", report.logs_removed},
          {"logBytesFreed", report.log_bytes_freed},
          {"daemonLogBytesRotated", report.daemon_log_bytes_rotated},
          {"requestIdsRemoved", request_ids}};
}

}  // namespace mission::daemon
