#include "daemon/execution/execution_runner.hpp"

#include <signal.h>

#include <cstdio>

#include "daemon/daemon.hpp"
#include "daemon/execution/agent_execution.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/execution/observation_policy.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon::execution {
namespace {

constexpr std::size_t kExcerptBytes = 200;

store::ExecutionRow require_row(store::Database& db, const std::string& id) {
  auto row = store::ExecutionRepository(db).find(id);
  if (!row) throw MissionError(ErrorCode::not_found, "agent execution '" + id + "' vanished");
  return *row;
}

}  // namespace

ExecutionRunner::ExecutionRunner(Daemon& daemon, const std::string& execution_id,
                                 const std::string& cwd, const std::vector<std::string>& command,
                                 const std::vector<std::string>& env, bool reads_markers,
                                 adapters::LaunchFiles files)
    : daemon_(daemon),
      execution_id_(execution_id),
      files_(std::move(files)),
      log_(daemon.paths().state_dir / "logs", execution_id),
      kill_timer_(daemon.loop(), [this] {
        if (child_ != nullptr) child_->signal_group(SIGKILL);
      }) {
  if (reads_markers) markers_.emplace();
  loop::ChildProcess::Callbacks callbacks;
  callbacks.on_output = [this](char stream, std::string_view bytes) { on_output(stream, bytes); };
  callbacks.on_exit = [this](const loop::ChildProcess::Exit& exit) { on_exit(exit); };
  int error = 0;
  child_ = loop::ChildProcess::spawn(daemon.loop(), {command, env, cwd}, std::move(callbacks), error);

  store::Database& db = daemon.database();
  store::ExecutionRow row = require_row(db, execution_id);
  row.updated_at = unix_ms_now();
  if (child_ == nullptr) {
    std::string reason = "cannot start '" + command.front() + "': " + uv_strerror(error);
    log_.append('e', "[mission: " + reason + "]\n");
    log_.close();
    row.state = std::string(kFailed);
    row.ended_at = row.updated_at;
    store::ExecutionRepository(db).update(row);
    throw MissionError(ErrorCode::invalid_argument, reason,
                       error == UV_ENOENT ? "check the command name and PATH"
                                          : "check the command and the working directory",
                       {{"agentExecutionId", execution_id}});
  }
  row.state = std::string(kRunning);
  row.pid = child_->pid();
  row.started_at = row.updated_at;
  store::ExecutionRepository(db).update(row);
}

ExecutionRunner::~ExecutionRunner() {
  // The daemon is going away while the agent runs on: a restarted daemon
  // marks it lost, since nobody can read its output any more.
  if (child_ != nullptr) child_->release();
  log_.close();
}

void ExecutionRunner::stop(bool force) {
  if (child_ == nullptr) return;
  stop_requested_ = true;
  if (force) {
    child_->signal_group(SIGKILL);
    return;
  }
  child_->signal_group(SIGTERM);
  kill_timer_.start(limits::kStopGraceMs);
}

void ExecutionRunner::on_output(char stream, std::string_view bytes) {
  log_.append(stream, bytes);
  // Markers count on stdout only, and only for stdout-marker delivery.
  if (stream != 'o' || !markers_) return;
  markers_->feed(bytes, pending_markers_);
  handle_markers();
}

void ExecutionRunner::handle_markers() {
  if (pending_markers_.empty()) return;
  // The markers of one read commit together: one transaction instead of one
  // per marker, and none is recorded before the ones printed before it.
  store::Transaction transaction(daemon_.database());
  for (const MarkerLine& line : pending_markers_) {
    try {
      handle_marker(line);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: %s: marker on line %llu: %s\n", execution_id_.c_str(),
                   static_cast<unsigned long long>(line.line_number), e.what());
    }
  }
  pending_markers_.clear();
  transaction.commit();
  bool state_may_change = false;
  for (const nlohmann::json& ack : acks_) {
    publish_observation(daemon_, execution_id_, ack);
    state_may_change = state_may_change || ack.value("status", "") == "accepted";
  }
  acks_.clear();
  if (state_may_change) publish_execution(daemon_, "execution.updated", execution_id_);
}

void ExecutionRunner::handle_marker(const MarkerLine& line) {
  ObservationLedger ledger(daemon_.database());
  const std::string key = "marker-line-" + std::to_string(line.line_number);
  auto reject = [&](const std::string& reason) {
    acks_.push_back(ledger.record_diagnostic(execution_id_, "stdout-marker", key, reason,
                                             {{"line", line.line_number},
                                              {"excerpt", line.json.substr(0, kExcerptBytes)}}));
  };
  if (line.kind == MarkerLine::Kind::oversized) {
    reject("marker line exceeds " + std::to_string(limits::kMaxMarkerBytes) + " bytes");
    return;
  }
  nlohmann::json marker = nlohmann::json::parse(line.json, nullptr, false);
  if (marker.is_discarded()) {
    reject("marker is not valid JSON");
    return;
  }
  const SchemaRegistry& schemas = SchemaRegistry::embedded();
  if (auto violations = schemas.validate("markers/envelope", marker); !violations.empty()) {
    reject("invalid marker: " + describe(violations));
    return;
  }
  const std::string named = marker.at("agentExecutionId").get<std::string>();
  if (named != execution_id_) {
    reject("marker names another execution ('" + named + "')");
    return;
  }
  const nlohmann::json& signal = marker.at("signal");
  const std::string schema = "signals/" + signal.at("type").get<std::string>();
  if (auto violations = schemas.validate(schema, signal); !violations.empty()) {
    reject("invalid " + signal.at("type").get<std::string>() + " signal: " + describe(violations));
    return;
  }
  try {
    acks_.push_back(ledger.record(
        {execution_id_, "stdout-marker", marker.at("eventId").get<std::string>(), signal}));
  } catch (const MissionError& e) {
    reject(e.what());
  }
}

void ExecutionRunner::on_exit(const loop::ChildProcess::Exit& exit) {
  child_ = nullptr;
  kill_timer_.stop();
  // Before the final state is published: whoever sees it may rely on the
  // config (and the token in it) being gone.
  files_.remove();
  if (markers_) {
    markers_->finish(pending_markers_);
    handle_markers();
  }
  log_.close();

  store::Database& db = daemon_.database();
  store::Transaction transaction(db);
  store::ExecutionRow row = require_row(db, execution_id_);
  auto claim = store::ObservationRepository(db).last_claim_kind(execution_id_);
  std::string_view final_state =
      final_state_after_exit(exit.status, exit.signal, stop_requested_, claim);
  row.state = std::string(final_state);
  row.exit_code = exit.signal == 0 ? std::optional<std::int64_t>(exit.status) : std::nullopt;
  row.exit_signal = exit.signal != 0 ? std::optional<std::int64_t>(exit.signal) : std::nullopt;
  row.ended_at = row.updated_at = unix_ms_now();
  store::ExecutionRepository(db).update(row);
  ObservationLedger(db).promote_claims(execution_id_, final_state);
  transaction.commit();
  publish_execution(daemon_, "execution.updated", execution_id_);
  // Last: this frees the runner, so the id is copied out of it first.
  const std::string id = execution_id_;
  daemon_.runner_finished(id);
}

}  // namespace mission::daemon::execution
