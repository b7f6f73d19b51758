#pragma once
// One launched AgentExecution while its process lives: output into the log,
// stdout markers into the ledger (for stdout-marker delivery only), stop
// with a grace period, and the final state decided when the process ends.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/adapters/launch_files.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/loop/child_process.hpp"
#include "daemon/loop/timer.hpp"
#include "shared/marker_reader.hpp"

namespace mission::daemon {
class Daemon;
}

namespace mission::daemon::execution {

class ExecutionRunner {
 public:
  // Spawns the execution's command with `env` in its cwd and marks it
  // running; on failure marks it failed and throws MissionError. `files`
  // (the adapter's temporary config) are removed when the process ends,
  // when the spawn fails, or when the runner goes away with the daemon.
  ExecutionRunner(Daemon& daemon, const std::string& execution_id, const std::string& cwd,
                  const std::vector<std::string>& command, const std::vector<std::string>& env,
                  bool reads_markers, adapters::LaunchFiles files);
  ~ExecutionRunner();
  ExecutionRunner(const ExecutionRunner&) = delete;
  ExecutionRunner& operator=(const ExecutionRunner&) = delete;

  // SIGTERM to the process group, SIGKILL after the grace period (at once
  // with `force`). The execution ends cancelled.
  void stop(bool force);

  const std::string& execution_id() const { return execution_id_; }

 private:
  void on_output(char stream, std::string_view bytes);
  void on_exit(const loop::ChildProcess::Exit& exit);
  void handle_markers();
  void handle_marker(const MarkerLine& line);

  Daemon& daemon_;
  std::string execution_id_;
  adapters::LaunchFiles files_;
  ExecutionLogWriter log_;
  std::optional<MarkerReader> markers_;
  std::vector<MarkerLine> pending_markers_;
  std::vector<nlohmann::json> acks_;  // of the batch being handled, published after its commit
  loop::ChildProcess* child_ = nullptr;
  loop::Timer kill_timer_;
  bool stop_requested_ = false;
};

}  // namespace mission::daemon::execution
