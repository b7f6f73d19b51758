#pragma once
// One launched AgentExecution while its process lives: output into the log,
// stdout markers into the ledger (for stdout-marker delivery only), the
// tokens and cost of its streaming JSON into the store, stop
// with a grace period, and the final state decided when the process ends.
// Owned by the Launcher.

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/execution/acp_session.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/loop/child_process.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/sandbox/confined_launch.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "daemon/sandbox/refused_writes.hpp"
#include "daemon/terminal/permission_prompt.hpp"
#include "daemon/terminal/terminal_session.hpp"
#include "shared/agent_usage.hpp"
#include "shared/marker_reader.hpp"

namespace mission::daemon::execution {

class ExecutionRunner : private AcpSession::Listener {
 public:
  // `on_finished` runs once the process has ended and the final state is
  // recorded; it may destroy the runner.
  ExecutionRunner(RunnerServices& services, LaunchSpec& spec,
                  std::function<void(const std::string&)> on_finished);
  ~ExecutionRunner();
  ExecutionRunner(const ExecutionRunner&) = delete;
  ExecutionRunner& operator=(const ExecutionRunner&) = delete;

  // Spawns the process and marks the execution running. If the spawn fails
  // the execution is failed and MissionError is thrown; the runner is then
  // done. If recording `running` fails after the spawn, the process is
  // killed, the error is thrown, and the runner lives until the process
  // has ended so that its end is still recorded.
  void start(const LaunchSpec& spec);

  // SIGTERM to the process group, SIGKILL after the grace period (at once
  // with `force`). The execution ends cancelled. Over ACP a turn that runs
  // is sent session/cancel first, and SIGTERM follows its end or
  // kAcpCancelGraceMs, whichever comes first; a session stopped between
  // turns (idle) ends completed, its turns having ended.
  void stop(bool force);

  // Types `line` on the process's terminal, Enter after it, or writes it and
  // a newline to its stdin pipe; without `press_enter` the line alone.
  // Over ACP `line` is a follow-up prompt: the next turn at once between
  // turns, else queued until the turn ends.
  // False when it has neither (launched without stdin lines) or has ended.
  bool deliver_inbound(const std::string& line, bool press_enter);

  // Bytes typed or written for the process that it has not read, while it
  // takes lines (on a terminal, or a stdin pipe); nullopt when it takes none.
  std::optional<std::size_t> queued_input() const;

  // The permission prompt its screen shows now, read afresh; nullopt off a
  // terminal or for an adapter whose menus mission cannot read.
  std::optional<terminal::PermissionPrompt> permission_prompt();

  // Whether it is driven over ACP and runs.
  bool speaks_acp() const { return acp_ != nullptr && child_ != nullptr; }

  // Answers the ACP permission request it waits on with option `choice`
  // (1-based); false when it has none open or no such option.
  bool answer_permission(std::size_t choice);

  // Whether a process of this runner is alive.
  bool running() const { return child_ != nullptr; }
  // Its terminal while it runs on one, else nullptr.
  terminal::TerminalSession* terminal() const { return terminal_.get(); }
  const std::string& execution_id() const { return execution_id_; }
  // What its output streams hold past their last complete line.
  std::vector<PartialLine> partial_lines() const { return log_.partial_lines(); }

 private:
  void on_output(char stream, std::string_view bytes);
  void on_exit(const loop::ChildProcess::Exit& exit);
  void handle_markers();
  void record_usage();
  void record_refused_writes(const std::vector<sandbox::RefusedWrite>& writes);
  void handle_marker(const MarkerLine& line, events::EventBatch& batch);
  void fail_start(const std::string& reason);
  // Once the screen has settled: records a permission prompt that came up
  // or left since the last read.
  void read_permission_prompt();

  // What the ACP session learns (AcpSession::Listener).
  void on_log_line(const std::string& line) override;
  void on_update(std::string_view kind, const nlohmann::json& payload) override;
  void on_permission(const AcpPermission* open) override;
  void on_policy_answer(const AcpPermission& request, const PermissionDecision& decision,
                        std::size_t choice) override;
  void on_turn_start() override;
  void on_turn_end(const std::string& stop_reason, const std::string& last_message) override;
  void on_usage(const AgentUsage& total) override;
  // Moves a live execution to `next` (the facts of its session), with its
  // event; nothing when it is final or already there.
  void set_acp_state(ExecutionState next);
  // Its state in the store; nullopt when it cannot be read.
  std::optional<ExecutionState> stored_state();
  // The turn ended on a question: recorded as the agent's needs_input, so
  // it waits in the inbox and `mission answer` starts the next turn.
  void record_acp_question(const std::string& question);
  void on_failure(const std::string& reason) override;
  void on_diagnostic(const std::string& reason, const std::string& excerpt) override;
  // Records one fact of the session as an observation, with its events.
  void record_acp_fact(std::string_view kind, const std::string& key,
                       const nlohmann::json& payload);
  // The session is over: the process is told to finish (SIGTERM, SIGKILL
  // after the grace period) and the execution ends `outcome`.
  void finish_session(ExecutionState outcome);

  RunnerServices& services_;
  std::string execution_id_;
  adapters::LaunchFiles files_;
  ExecutionLogWriter log_;
  std::optional<MarkerReader> markers_;
  std::vector<MarkerLine> pending_markers_;
  // The tokens and cost its stream states, for a stream format that has them.
  std::optional<StreamUsageReader> usage_;
  loop::ChildProcess* child_ = nullptr;
  std::unique_ptr<terminal::TerminalSession> terminal_;
  // Its confinement while the process may run; its TMPDIR goes with it.
  std::unique_ptr<sandbox::ConfinedLaunch> confinement_;
  // The writes its sandbox refused, read from its output while confined.
  std::optional<sandbox::RefusedWriteReader> refused_writes_;
  // --network none's filter, until the spawn has taken it.
  std::unique_ptr<sandbox::NetworkFilter> network_filter_;
  loop::Timer kill_timer_;
  // After session/cancel on a stop: SIGTERM when the turn has not ended.
  loop::Timer cancel_timer_;
  bool stop_requested_ = false;
  bool takes_stdin_lines_ = false;
  std::string adapter_;
  // The prompt recorded last (nullopt: none on the screen), and how many
  // were recorded, which keys their observations.
  std::optional<terminal::PermissionPrompt> prompt_;
  std::size_t prompts_seen_ = 0;
  std::size_t policy_answers_ = 0;  // requests the run's policy answered
  // Over ACP: its session, the final state the session decided (nullopt
  // while it runs), and counts that key its observations.
  std::unique_ptr<AcpSession> acp_;
  std::optional<AcpSession::Start> acp_start_;
  std::optional<ExecutionState> acp_outcome_;
  std::size_t acp_facts_ = 0;
  std::size_t acp_questions_ = 0;
  // Launched with --keep-open: between turns it waits, idle, for the next
  // prompt instead of ending with its first turn.
  bool keep_open_ = false;
  std::size_t acp_diagnostics_ = 0;
  std::function<void(const std::string&)> on_finished_;
};

}  // namespace mission::daemon::execution
