#include "daemon/execution/execution_runner.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/execution/observation_policy.hpp"
#include "daemon/execution/refused_write_record.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "daemon/store/usage_repository.hpp"
#include "daemon/terminal/pseudo_terminal.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/schema_registry.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon::execution {
namespace {

constexpr std::size_t kExcerptBytes = 200;

store::ExecutionRow require_row(store::Database& db, const std::string& id) {
  auto row = store::ExecutionRepository(db).find(id);
  if (!row) throw MissionError(ErrorCode::not_found, "agent execution '" + id + "' vanished");
  return *row;
}

}  // namespace

ExecutionRunner::ExecutionRunner(RunnerServices& services, LaunchSpec& spec,
                                 std::function<void(const std::string&)> on_finished)
    : services_(services),
      execution_id_(spec.execution_id),
      files_(std::move(spec.files)),
      log_(services.logs_dir, spec.execution_id),
      kill_timer_(services.loop,
                  [this] {
                    if (child_ != nullptr) child_->signal_group(SIGKILL);
                  }),
      cancel_timer_(services.loop,
                    [this] {
                      if (child_ == nullptr) return;
                      child_->signal_group(SIGTERM);
                      kill_timer_.start(limits::kStopGraceMs);
                    }),
      adapter_(spec.adapter),
      on_finished_(std::move(on_finished)) {
  if (spec.reads_markers) markers_.emplace();
  acp_start_ = spec.acp;
  keep_open_ = spec.acp && spec.acp->keep_open;
  if (!spec.stream_format.empty()) usage_.emplace(spec.stream_format);
}

ExecutionRunner::~ExecutionRunner() {
  // The daemon is going away while the agent runs on: a restarted daemon
  // marks it lost, since nobody can read its output any more.
  if (child_ != nullptr) {
    child_->release();
    if (confinement_) confinement_->keep_temp();
  }
  log_.close();
}

void ExecutionRunner::fail_start(const std::string& reason) {
  files_.remove();
  confinement_.reset();
  log_.append('e', "[mission: " + reason + "]\n");
  log_.close();
  store::Database& db = services_.db;
  events::EventBatch batch(services_.events);
  store::Transaction transaction(db);
  store::ExecutionRow row = require_row(db, execution_id_);
  row.state = ExecutionState::failed;
  row.ended_at = row.updated_at = unix_ms_now();
  store::ExecutionRepository(db).update(row);
  add_execution_event(batch, db, kExecutionUpdated, execution_id_);
  transaction.commit();
  batch.publish_to(services_.events);
}

void ExecutionRunner::start(const LaunchSpec& spec) {
  loop::ChildProcess::Callbacks callbacks;
  callbacks.on_output = [this](char stream, std::string_view bytes) { on_output(stream, bytes); };
  callbacks.on_exit = [this](const loop::ChildProcess::Exit& exit) { on_exit(exit); };
  loop::ChildProcess::Options options;
  options.argv = spec.argv;
  options.env = spec.env;
  options.cwd = spec.cwd;
  if (spec.on_terminal) {
    const unsigned short rows = spec.rows > 0 ? spec.rows : limits::kDefaultTerminalRows;
    const unsigned short columns =
        spec.columns > 0 ? spec.columns : limits::kDefaultTerminalColumns;
    try {
      terminal::PseudoTerminal pty = terminal::open_pseudo_terminal(rows, columns);
      options.terminal_master = pty.master;
      options.terminal_path = pty.path;
    } catch (const MissionError& e) {
      fail_start(e.what());
      throw;
    }
    // Programs on a terminal look at TERM to know what they may draw.
    const bool has_term =
        std::any_of(options.env.begin(), options.env.end(),
                    [](const std::string& entry) { return entry.rfind("TERM=", 0) == 0; });
    if (!has_term) options.env.push_back("TERM=xterm-256color");
    terminal_ = std::make_unique<terminal::TerminalSession>(
        services_.loop, rows, columns,
        terminal::TerminalSession::AgentSide{
            [this](std::string_view bytes) {
              if (child_ != nullptr) child_->write_terminal(bytes);
            },
            [this](unsigned short new_rows, unsigned short new_columns) {
              if (child_ != nullptr) child_->resize_terminal(new_rows, new_columns);
            },
            [this] { return child_ != nullptr ? child_->queued_input_bytes() : std::size_t{0}; }});
    if (terminal::reads_permission_prompts(adapter_)) {
      terminal_->on_settled([this] { read_permission_prompt(); });
    }
  }
  if (spec.confined) {
    try {
      confinement_ = std::make_unique<sandbox::ConfinedLaunch>(
          sandbox::LaunchPlace{spec.cwd, {}, {}, spec.writable, spec.hidden, spec.readable},
          services_.temp_root, execution_id_, options);
    } catch (const MissionError& e) {
      terminal_.reset();
      if (options.terminal_master >= 0) ::close(options.terminal_master);
      fail_start(e.what());
      throw;
    }
    if (!confinement_->confined()) {
      // Loud on every launch: the person chose nothing, the kernel did.
      log_.append('e', "[mission: " + confinement_->warning() + "]\n");
      std::fprintf(stderr, "missiond: agent execution %s: %s\n", execution_id_.c_str(),
                   confinement_->warning().c_str());
    } else {
      refused_writes_.emplace(confinement_->profile());
    }
  }
  if (spec.network == sandbox::Network::none) {
    try {
      network_filter_ = std::make_unique<sandbox::NetworkFilter>();
    } catch (const MissionError& e) {
      confinement_.reset();
      terminal_.reset();
      if (options.terminal_master >= 0) ::close(options.terminal_master);
      fail_start(e.what());
      throw;
    }
    // After the Landlock rules, if any, on the same spawning thread.
    options.confine_spawning_thread = [confine = std::move(options.confine_spawning_thread),
                                       filter = network_filter_.get()] {
      if (confine) {
        if (const int rc = confine(); rc != 0) return rc;
      }
      return filter->apply_to_this_thread();
    };
  }
  int error = 0;
  // Over ACP the pipe carries the protocol, never a person's lines.
  options.stdin_pipe = spec.stdin_lines || spec.acp.has_value();
  takes_stdin_lines_ = spec.stdin_lines && !spec.acp;
  child_ = loop::ChildProcess::spawn(services_.loop, options, std::move(callbacks), error);
  if (confinement_) confinement_->spawned();
  network_filter_.reset();  // the child holds its copy
  if (child_ == nullptr) {
    terminal_.reset();
    // posix_spawn reports a working directory it cannot enter as ENOENT
    // too: name the directory, not PATH, when that is what is missing.
    struct stat cwd_stat {};
    const bool cwd_gone = !spec.cwd.empty() &&
                          (::stat(spec.cwd.c_str(), &cwd_stat) != 0 || !S_ISDIR(cwd_stat.st_mode));
    std::string reason = cwd_gone
                             ? "cannot start '" + spec.argv.front() + "': the working directory " +
                                   spec.cwd + " is gone"
                             : "cannot start '" + spec.argv.front() + "': " + uv_strerror(error);
    fail_start(reason);
    throw MissionError(ErrorCode::invalid_argument, reason,
                       cwd_gone ? "create the directory again, or launch from another one"
                       : error == UV_ENOENT ? "check the command name and PATH"
                                            : "check the command and the working directory",
                       {{"agentExecutionId", execution_id_}});
  }
  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    store::ExecutionRow row = require_row(db, execution_id_);
    row.state = ExecutionState::running;
    row.pid = child_->pid();
    row.started_at = row.updated_at = unix_ms_now();
    store::ExecutionRepository(db).update(row);
    // What was hidden is known once its profile is made, here.
    store::ExecutionRepository(db).set_sandbox(
        execution_id_, row.sandbox.value_or("") + sandbox::secrets_note(confinement_.get()));
    add_execution_event(batch, db, kExecutionUpdated, execution_id_);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (...) {
    // Nothing records this process as running, so it must not run on: it
    // is killed, and its end is recorded if the store takes it by then.
    stop_requested_ = true;
    child_->signal_group(SIGKILL);
    throw;
  }
  if (acp_start_) {
    acp_ = std::make_unique<AcpSession>(
        [this](std::string line) {
          if (child_ != nullptr) child_->write_stdin(std::move(line));
        },
        static_cast<AcpSession::Listener&>(*this), limits::kMaxAcpLineBytes);
    acp_->start(std::move(*acp_start_));
    acp_start_.reset();
  }
}

bool ExecutionRunner::deliver_inbound(const std::string& line, bool press_enter) {
  if (child_ == nullptr) return false;
  if (acp_) return !acp_outcome_ && !stop_requested_ && acp_->prompt(line);
  // On a terminal the line is typed, Enter after it, as a person would.
  if (terminal_) {
    terminal_->type(line, press_enter);
    return true;
  }
  return child_->write_stdin(press_enter ? line + "\n" : line) == 0;
}

std::optional<std::size_t> ExecutionRunner::queued_input() const {
  if (child_ == nullptr) return std::nullopt;
  if (acp_) return acp_->queued_bytes();
  if (terminal_) return terminal_->queued_input();
  if (!takes_stdin_lines_) return std::nullopt;
  return child_->queued_input_bytes();
}

std::optional<terminal::PermissionPrompt> ExecutionRunner::permission_prompt() {
  if (acp_ && child_ != nullptr) {
    const AcpPermission* open = acp_->open_permission();
    if (open == nullptr) return std::nullopt;
    return terminal::PermissionPrompt{open->title, open->option_names, 0};
  }
  if (!terminal_ || child_ == nullptr) return std::nullopt;
  return terminal::find_permission_prompt(adapter_, terminal_->screen().text());
}

namespace {

// The same menu whichever option the cursor is on: moving it is no news.
bool same_menu(const std::optional<terminal::PermissionPrompt>& a,
               const std::optional<terminal::PermissionPrompt>& b) {
  if (!a || !b) return !a && !b;
  return a->question == b->question && a->options == b->options;
}

}  // namespace

void ExecutionRunner::read_permission_prompt() {
  try {
    std::optional<terminal::PermissionPrompt> found = permission_prompt();
    if (same_menu(found, prompt_)) return;
    const bool cleared = !found && prompt_;
    prompt_ = std::move(found);
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    if (is_final(require_row(db, execution_id_).state)) return;
    nlohmann::json payload = nlohmann::json::object();
    std::string_view kind = store::kPermissionPromptClearedKind;
    if (prompt_) {
      kind = store::kPermissionPromptKind;
      payload = {
          {"question", prompt_->question}, {"options", prompt_->options}, {"detected", true}};
    }
    // One key per prompt and its clearing: prompt-3, then prompt-3-cleared.
    if (!cleared) ++prompts_seen_;
    const std::string key = "prompt-" + std::to_string(prompts_seen_) + (cleared ? "-cleared" : "");
    nlohmann::json ack =
        ObservationLedger(db).record_screen_fact(execution_id_, kind, key, payload);
    add_signal_events(batch, db, execution_id_, ack);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: reading its permission prompt failed: %s\n",
                 execution_id_.c_str(), e.what());
  }
}

void ExecutionRunner::stop(bool force) {
  if (child_ == nullptr) return;
  const bool again = stop_requested_;
  stop_requested_ = true;
  if (force) {
    child_->signal_group(SIGKILL);
    return;
  }
  if (acp_ && !acp_outcome_ && !again) {
    if (acp_->turn_running()) {
      // The agent is asked to end its turn the protocol's way first.
      acp_->cancel();
      cancel_timer_.start(limits::kAcpCancelGraceMs);
      return;
    }
    if (stored_state() == ExecutionState::idle) acp_outcome_ = ExecutionState::completed;
  }
  cancel_timer_.stop();
  child_->signal_group(SIGTERM);
  kill_timer_.start(limits::kStopGraceMs);
}

void ExecutionRunner::on_output(char stream, std::string_view bytes) {
  if (acp_ && stream == 'o') {
    // The session logs what the agent wrote, its message chunks joined.
    try {
      acp_->feed(bytes);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: %s: reading its ACP output failed: %s\n",
                   execution_id_.c_str(), e.what());
    }
    return;
  }
  log_.append(stream, bytes);
  if (terminal_) terminal_->on_output(bytes);
  if (refused_writes_) record_refused_writes(refused_writes_->feed(stream, bytes));
  if (stream != 'o') return;
  if (usage_ && usage_->feed(bytes)) record_usage();
  // Markers count on stdout only, and only for stdout-marker delivery.
  if (!markers_) return;
  markers_->feed(bytes, pending_markers_);
  handle_markers();
}

void ExecutionRunner::handle_markers() {
  if (pending_markers_.empty()) return;
  // The markers of one read commit together: one transaction instead of one
  // per marker, and none is recorded before the ones printed before it.
  store::Database& db = services_.db;
  events::EventBatch batch(services_.events);
  store::Transaction transaction(db);
  for (const MarkerLine& line : pending_markers_) {
    try {
      handle_marker(line, batch);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: %s: marker on line %llu: %s\n", execution_id_.c_str(),
                   static_cast<unsigned long long>(line.line_number), e.what());
    }
  }
  pending_markers_.clear();
  transaction.commit();
  batch.publish_to(services_.events);
}

void ExecutionRunner::record_usage() {
  // Written at most once per read of its output, and only when a figure
  // changed: a stream states usage once a turn or a model call.
  try {
    store::Transaction transaction(services_.db);
    store::UsageRepository(services_.db)
        .put({execution_id_, "stream", usage_->total(), unix_ms_now()});
    transaction.commit();
    if (services_.usage_recorded) services_.usage_recorded(execution_id_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its usage failed: %s\n", execution_id_.c_str(),
                 e.what());
  }
}

void ExecutionRunner::record_refused_writes(const std::vector<sandbox::RefusedWrite>& writes) {
  if (writes.empty()) return;
  try {
    events::EventBatch batch(services_.events);
    execution::record_refused_writes(services_.db, batch, execution_id_, writes);
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its refused writes failed: %s\n",
                 execution_id_.c_str(), e.what());
  }
}

void ExecutionRunner::handle_marker(const MarkerLine& line, events::EventBatch& batch) {
  store::Database& db = services_.db;
  ObservationLedger ledger(db);
  const std::string key = "marker-line-" + std::to_string(line.line_number);
  auto reject = [&](const std::string& reason) {
    nlohmann::json ack = ledger.record_diagnostic(
        execution_id_, "stdout-marker", key, reason,
        {{"line", line.line_number}, {"excerpt", valid_utf8_excerpt(line.json, kExcerptBytes)}});
    add_signal_events(batch, db, execution_id_, ack);
  };
  if (line.kind == MarkerLine::Kind::oversized) {
    reject("marker line exceeds " + std::to_string(limits::kMaxMarkerBytes) + " bytes");
    return;
  }
  if (json_too_deep(line.json)) {
    reject(json_too_deep_error().what());
    return;
  }
  nlohmann::json marker = parse_json_or_discarded(line.json);
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
  const std::string type_name = signal.at("type").get<std::string>();
  if (auto violations = schemas.validate("signals/" + type_name, signal); !violations.empty()) {
    reject("invalid " + type_name + " signal: " + describe(violations));
    return;
  }
  try {
    nlohmann::json ack =
        ledger.record({execution_id_, "stdout-marker", marker.at("eventId").get<std::string>(),
                       require_name<SignalType>(type_name, "signal type"), signal});
    add_signal_events(batch, db, execution_id_, ack);
  } catch (const MissionError& e) {
    reject(e.what());
  }
}

bool ExecutionRunner::answer_permission(std::size_t choice) {
  return acp_ && child_ != nullptr && acp_->answer_permission(choice);
}

void ExecutionRunner::on_log_line(const std::string& line) {
  log_.append('o', line + "\n");
}

void ExecutionRunner::record_acp_fact(std::string_view kind, const std::string& key,
                                      const nlohmann::json& payload) {
  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    if (is_final(require_row(db, execution_id_).state)) return;
    nlohmann::json ack =
        ObservationLedger(db).record_fact(execution_id_, store::kAcpOrigin, kind, key, payload);
    add_signal_events(batch, db, execution_id_, ack);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its %.*s failed: %s\n", execution_id_.c_str(),
                 static_cast<int>(kind.size()), kind.data(), e.what());
  }
}

void ExecutionRunner::on_update(std::string_view kind, const nlohmann::json& payload) {
  record_acp_fact(kind, "acp-" + std::to_string(++acp_facts_), payload);
}

void ExecutionRunner::on_permission(const AcpPermission* open) {
  // One key per request and its clearing, as for a menu on a screen; the
  // inbox shows the last one recorded while it is not cleared.
  if (open == nullptr) {
    record_acp_fact(store::kPermissionPromptClearedKind,
                    "acp-permission-" + std::to_string(prompts_seen_) + "-cleared",
                    nlohmann::json::object());
    // Answered while the turn goes on; at the turn's end its own state follows.
    if (acp_->turn_running()) set_acp_state(ExecutionState::running);
    return;
  }
  ++prompts_seen_;
  nlohmann::json payload = {
      {"question", open->title}, {"options", open->option_names}, {"detected", false}};
  if (!open->kind.empty()) payload["toolKind"] = open->kind;
  record_acp_fact(store::kPermissionPromptKind, "acp-permission-" + std::to_string(prompts_seen_),
                  payload);
  set_acp_state(ExecutionState::awaiting_permission);
}

void ExecutionRunner::on_policy_answer(const AcpPermission& request,
                                       const PermissionDecision& decision, std::size_t choice) {
  // Answered as a person's answer is recorded, by "policy" with its rule:
  // exec signals, watch and the run's report show who decided. The
  // request never opened, so the inbox never listed it.
  const std::string& option = request.option_names.at(choice - 1);
  // The title and option are the agent's: excerpts in the line, whole in
  // the record.
  log_.append('e', "[mission: permission for " + valid_utf8_excerpt(request.title, kExcerptBytes) +
                       " answered by the policy (" + decision.rule +
                       "): " + valid_utf8_excerpt(option, kExcerptBytes) + "]\n");
  nlohmann::json payload = {{"question", request.title},
                            {"choice", choice},
                            {"option", option},
                            {"by", "policy"},
                            {"rule", decision.rule}};
  if (!request.kind.empty()) payload["toolKind"] = request.kind;
  record_acp_fact(store::kPermissionAnswerKind, "acp-policy-" + std::to_string(++policy_answers_),
                  payload);
}

void ExecutionRunner::set_acp_state(ExecutionState next) {
  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    store::ExecutionRow row = require_row(db, execution_id_);
    if (is_final(row.state) || row.state == next) return;
    row.state = next;
    row.updated_at = unix_ms_now();
    store::ExecutionRepository(db).update(row);
    add_execution_event(batch, db, kExecutionUpdated, execution_id_);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its state failed: %s\n", execution_id_.c_str(),
                 e.what());
  }
}

std::optional<ExecutionState> ExecutionRunner::stored_state() {
  try {
    return require_row(services_.db, execution_id_).state;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: reading its state failed: %s\n", execution_id_.c_str(),
                 e.what());
    return std::nullopt;
  }
}

void ExecutionRunner::on_turn_start() {
  set_acp_state(ExecutionState::running);
}

void ExecutionRunner::record_acp_question(const std::string& question) {
  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    SignalObservation observation{execution_id_,
                                  std::string(store::kAcpOrigin),
                                  "acp-question-" + std::to_string(++acp_questions_),
                                  SignalType::needs_input,
                                  {{"type", "needs_input"},
                                   {"question", acp_question_text(question)},
                                   {"choices", nlohmann::json::array()}}};
    nlohmann::json ack = ObservationLedger(db).record(observation);
    add_signal_events(batch, db, execution_id_, ack);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its question failed: %s\n", execution_id_.c_str(),
                 e.what());
  }
}

void ExecutionRunner::on_turn_end(const std::string& stop_reason, const std::string& last_message) {
  log_.append('e', "[mission: the agent's turn ended: " + stop_reason + "]\n");
  if (stop_requested_) {
    // The stop's session/cancel ended it, or the turn ended meanwhile.
    finish_session(ExecutionState::cancelled);
    return;
  }
  if (stop_reason != "end_turn") {
    finish_session(stop_reason == "cancelled" ? ExecutionState::cancelled : ExecutionState::failed);
    return;
  }
  // What a person or a coordinator sent while it worked comes first: it is
  // the next turn, whatever the last one said.
  if (acp_->start_queued_turn()) return;
  if (turn_ends_on_question(last_message)) {
    record_acp_question(last_message);
    return;
  }
  // It asked through its tools (needs_input) during the turn: it waits the
  // same way, for the answer that will be its next turn.
  if (stored_state() == ExecutionState::awaiting_input) return;
  if (keep_open_) {
    set_acp_state(ExecutionState::idle);
    return;
  }
  finish_session(ExecutionState::completed);
}

void ExecutionRunner::on_usage(const AgentUsage& total) {
  try {
    store::Transaction transaction(services_.db);
    store::UsageRepository(services_.db).put({execution_id_, "stream", total, unix_ms_now()});
    transaction.commit();
    if (services_.usage_recorded) services_.usage_recorded(execution_id_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its usage failed: %s\n", execution_id_.c_str(),
                 e.what());
  }
}

void ExecutionRunner::on_failure(const std::string& reason) {
  log_.append('e', "[mission: " + reason + "]\n");
  finish_session(ExecutionState::failed);
}

void ExecutionRunner::on_diagnostic(const std::string& reason, const std::string& excerpt) {
  ++acp_diagnostics_;
  log_.append('e', "[mission: acp: " + reason + "]\n");
  if (acp_diagnostics_ > limits::kMaxAcpDiagnostics) return;
  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    nlohmann::json ack = ObservationLedger(db).record_diagnostic(
        execution_id_, std::string(store::kAcpOrigin),
        "acp-diagnostic-" + std::to_string(acp_diagnostics_), reason, {{"excerpt", excerpt}});
    add_signal_events(batch, db, execution_id_, ack);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording an ACP diagnostic failed: %s\n",
                 execution_id_.c_str(), e.what());
  }
}

void ExecutionRunner::finish_session(ExecutionState outcome) {
  if (acp_outcome_ || child_ == nullptr) return;
  acp_outcome_ = outcome;
  cancel_timer_.stop();
  child_->signal_group(SIGTERM);
  kill_timer_.start(limits::kStopGraceMs);
}

void ExecutionRunner::on_exit(const loop::ChildProcess::Exit& exit) {
  child_ = nullptr;
  kill_timer_.stop();
  cancel_timer_.stop();
  // Before the final state is published: whoever sees it may rely on the
  // config (and the token in it) being gone.
  files_.remove();
  confinement_.reset();
  try {
    if (markers_) {
      markers_->finish(pending_markers_);
      handle_markers();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s: recording its last markers failed: %s\n",
                 execution_id_.c_str(), e.what());
  }
  if (usage_ && usage_->finish()) record_usage();
  if (refused_writes_) record_refused_writes(refused_writes_->finish());
  if (acp_) {
    try {
      acp_->finish();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "missiond: %s: recording its last ACP output failed: %s\n",
                   execution_id_.c_str(), e.what());
    }
    if (!acp_outcome_ && !stop_requested_) {
      // It left while its session was open: whatever its status, the task
      // it was prompted with did not end.
      log_.append('e', "[mission: the agent ended before its ACP turn did]\n");
      acp_outcome_ = ExecutionState::failed;
    }
  }
  log_.close();

  try {
    store::Database& db = services_.db;
    events::EventBatch batch(services_.events);
    store::Transaction transaction(db);
    store::ExecutionRow row = require_row(db, execution_id_);
    ExecutionState final_state =
        acp_outcome_
            ? *acp_outcome_
            : final_state_after_exit(exit.status, exit.signal, stop_requested_,
                                     store::ObservationRepository(db).last_claim(execution_id_));
    row.state = final_state;
    row.exit_code = exit.signal == 0 ? std::optional<std::int64_t>(exit.status) : std::nullopt;
    row.exit_signal = exit.signal != 0 ? std::optional<std::int64_t>(exit.signal) : std::nullopt;
    row.ended_at = row.updated_at = unix_ms_now();
    store::ExecutionRepository(db).update(row);
    ObservationLedger(db).promote_claims(execution_id_, final_state);
    add_execution_event(batch, db, kExecutionUpdated, execution_id_);
    transaction.commit();
    batch.publish_to(services_.events);
    if (terminal_) {
      nlohmann::json status = {{"state", row.state}};
      if (row.exit_code) status["exitCode"] = *row.exit_code;
      if (row.exit_signal) status["exitSignal"] = *row.exit_signal;
      terminal_->end(status.dump());
    }
  } catch (const std::exception& e) {
    // Still active in the store: a restarted daemon marks it lost.
    std::fprintf(stderr, "missiond: %s: recording its end failed: %s\n", execution_id_.c_str(),
                 e.what());
  }
  if (terminal_) terminal_->end(R"({"state":"lost"})");
  // Last: this may free the runner, so the id is copied out of it first.
  const std::string id = execution_id_;
  on_finished_(id);
}

}  // namespace mission::daemon::execution
